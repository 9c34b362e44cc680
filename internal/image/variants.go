package image

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"runtime"
	"strconv"

	"github.com/gen2brain/webp"
	"golang.org/x/image/draw"
	xwebp "golang.org/x/image/webp"

	"github.com/hmdp/hmdp/internal/apperr"
)

// Widths are the widths in pixels of the variants made of every image,
// smallest first. An image is never enlarged: an image narrower than a
// width gets one variant at its own width, named for the first width it
// does not reach, and none for the wider ones (the server then serves the
// widest variant there is).
var Widths = []int{240, 480, 960}

// MaxPixels and MaxSide bound the dimensions of an accepted image, checked
// on its header before any pixel is decoded (a small file can declare a
// huge image: a decompression bomb). 24 megapixels is a 6000×4000 photo;
// decoded it takes at most 96 MB (RGBA), 192 MB at 16 bits a channel, and
// at most encoderSlots are decoded at once. MaxSide keeps every variant
// within WebP's 16383 pixels a side.
const (
	MaxPixels = 24_000_000
	MaxSide   = 12_000
)

// Quality of the variants: JPEG 80 and WebP 75 look alike; WebP method 2
// of 0 (fast) to 6 (small) is about 3 times faster than the default 4 for
// about 5% more bytes.
const (
	jpegQuality = 80
	webpQuality = 75
	webpMethod  = 2
)

// encoderSlots bounds the images decoded and encoded at once, process-wide:
// each holds up to a few hundred MB and a CPU for up to seconds.
var encoderSlots = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))

// variant is one stored variant of an image.
type variant struct {
	name string
	data []byte
}

// variantName is the blob name of the variant of base (an image's name
// without its extension) of width w in format ext.
func variantName(base string, w int, ext string) string {
	return base + ".w" + strconv.Itoa(w) + "." + ext
}

// variantNames are all the names variants of base may have.
func variantNames(base string) []string {
	var out []string
	for _, w := range Widths {
		for _, ext := range []string{"webp", "jpg", "png"} {
			out = append(out, variantName(base, w, ext))
		}
	}
	return out
}

// badImage is the refusal of an upload that does not decode.
func badImage() error {
	return apperr.BadInput("file", "must be a readable JPEG, PNG or WebP image")
}

// decodeConfig reads the dimensions of data, a file of type ext.
func decodeConfig(ext string, data []byte) (image.Config, error) {
	r := bytes.NewReader(data)
	switch ext {
	case ".jpg":
		return jpeg.DecodeConfig(r)
	case ".png":
		return png.DecodeConfig(r)
	case ".webp":
		// x/image/webp (pure Go) reads uploads; gen2brain/webp only
		// encodes what this server made.
		return xwebp.DecodeConfig(r)
	}
	return image.Config{}, fmt.Errorf("image: no decoder for %s", ext)
}

func decode(ext string, data []byte) (image.Image, error) {
	r := bytes.NewReader(data)
	switch ext {
	case ".jpg":
		return jpeg.Decode(r)
	case ".png":
		return png.Decode(r)
	case ".webp":
		return xwebp.Decode(r)
	}
	return nil, fmt.Errorf("image: no decoder for %s", ext)
}

// makeVariants checks the dimensions of data (a file of type ext), then
// decodes it and makes its variants, named after base: for each width a
// JPEG (a PNG if the image has transparency) and a WebP. Dimensions past
// MaxPixels or MaxSide, and data that does not decode, are BAD_USER_INPUT
// on "file". It waits for one of encoderSlots (or ctx).
func makeVariants(ctx context.Context, base, ext string, data []byte) ([]variant, error) {
	cfg, err := decodeConfig(ext, data)
	if err != nil {
		return nil, badImage()
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxSide || cfg.Height > MaxSide || cfg.Width*cfg.Height > MaxPixels {
		return nil, apperr.BadInput("file", "is %d×%d pixels: at most %d pixels a side and %d megapixels are accepted",
			cfg.Width, cfg.Height, MaxSide, MaxPixels/1_000_000)
	}
	orientation := 1
	if ext == ".jpg" {
		orientation = exifOrientation(data)
	}
	select {
	case encoderSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-encoderSlots }()
	src, err := decode(ext, data)
	if err != nil {
		return nil, badImage()
	}
	return variantsOf(src, base, orientation)
}

// variantsOf makes the variants of src, an image stored with the given
// EXIF orientation (1 to 8; browsers show a JPEG turned as its orientation
// says, so the variants are turned the same way).
func variantsOf(src image.Image, base string, orientation int) ([]variant, error) {
	b := src.Bounds()
	shownW, shownH := b.Dx(), b.Dy()
	turned := orientation >= 5 && orientation <= 8
	if turned {
		shownW, shownH = shownH, shownW
	}
	type plan struct{ name, w int }
	var plans []plan
	for _, w := range Widths {
		if w >= shownW {
			plans = append(plans, plan{w, shownW})
			break
		}
		plans = append(plans, plan{w, w})
	}
	opaque := true
	if o, ok := src.(interface{ Opaque() bool }); !ok || !o.Opaque() {
		opaque = false
	}
	var out []variant
	cur := src
	// Widest first: each narrower one is scaled from the one before.
	for i := len(plans) - 1; i >= 0; i-- {
		p := plans[i]
		h := max(1, (shownH*p.w+shownW/2)/shownW)
		sw, sh := p.w, h
		if turned {
			sw, sh = h, p.w
		}
		scaled := scale(cur, sw, sh)
		cur = scaled
		shown := orient(scaled, orientation)
		var fb bytes.Buffer
		ext := "jpg"
		if opaque {
			err := jpeg.Encode(&fb, shown, &jpeg.Options{Quality: jpegQuality})
			if err != nil {
				return nil, err
			}
		} else {
			ext = "png"
			if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&fb, shown); err != nil {
				return nil, err
			}
		}
		var wb bytes.Buffer
		if err := webp.Encode(&wb, shown, webp.Options{Quality: webpQuality, Method: webpMethod}); err != nil {
			return nil, err
		}
		out = append(out,
			variant{variantName(base, p.name, ext), fb.Bytes()},
			variant{variantName(base, p.name, "webp"), wb.Bytes()})
	}
	return out, nil
}

// scale returns src at w×h as RGBA: halved (a 2×2 average) while at least
// twice as large, then Catmull-Rom, which costs a fraction of Catmull-Rom
// from a large photo with the same look.
func scale(src image.Image, w, h int) *image.RGBA {
	for src.Bounds().Dx() >= 2*w && src.Bounds().Dy() >= 2*h {
		half := image.NewRGBA(image.Rect(0, 0, src.Bounds().Dx()/2, src.Bounds().Dy()/2))
		draw.ApproxBiLinear.Scale(half, half.Bounds(), src, src.Bounds(), draw.Src, nil)
		src = half
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if src.Bounds().Dx() == w && src.Bounds().Dy() == h {
		draw.Draw(dst, dst.Bounds(), src, src.Bounds().Min, draw.Src)
	} else {
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	}
	return dst
}

// orient turns and flips m as EXIF orientation o says it is shown.
func orient(m *image.RGBA, o int) *image.RGBA {
	if o < 2 || o > 8 {
		return m
	}
	w, h := m.Bounds().Dx(), m.Bounds().Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := range h {
		for x := range w {
			var dx, dy int
			switch o {
			case 2: // mirrored
				dx, dy = w-1-x, y
			case 3: // upside down
				dx, dy = w-1-x, h-1-y
			case 4: // mirrored upside down
				dx, dy = x, h-1-y
			case 5: // mirrored, turned
				dx, dy = y, x
			case 6: // turned clockwise
				dx, dy = h-1-y, x
			case 7:
				dx, dy = h-1-y, w-1-x
			case 8: // turned counter-clockwise
				dx, dy = y, w-1-x
			}
			si := m.PixOffset(x, y)
			di := dst.PixOffset(dx, dy)
			copy(dst.Pix[di:di+4], m.Pix[si:si+4])
		}
	}
	return dst
}

// exifOrientation reads the EXIF orientation of a JPEG (1, as stored,
// when it has none or it cannot be read).
func exifOrientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 1
	}
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return 1
		}
		marker := data[i+1]
		if marker == 0xDA || marker == 0xD9 { // image data: no EXIF before it
			return 1
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) > 14 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

func tiffOrientation(t []byte) int {
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	if len(t) < 8 {
		return 1
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 1
	}
	n := int(bo.Uint16(t[ifd:]))
	for e := range n {
		at := ifd + 2 + 12*e
		if at+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[at:]) == 0x0112 && bo.Uint16(t[at+2:]) == 3 { // Orientation, SHORT
			if o := int(bo.Uint16(t[at+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 1
		}
	}
	return 1
}
