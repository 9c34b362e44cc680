package image

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testPNG is a w×h PNG, transparent in its top-left quarter when alpha.
func testPNG(t testing.TB, w, h int, alpha bool) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.NRGBA{uint8(x * 255 / w), uint8(y * 255 / h), 90, 255})
		}
	}
	if alpha {
		for y := range h / 4 {
			for x := range w / 4 {
				m.Set(x, y, color.NRGBA{})
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testFile is the file of an upload path in a Store on a Dir.
func (s *Store) testFile(path string) string {
	return filepath.Join(s.blobs.(*Dir).path, blobOf(path))
}

// blobsOf are the stored blobs of path: the image and its variants.
func (s *Store) blobsOf(ctx context.Context, path string) []string {
	name := blobOf(path)
	var out []string
	for _, n := range append(variantNames(strings.TrimSuffix(name, filepath.Ext(name))), name) {
		if _, err := s.blobs.Stat(ctx, n); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// testJPEG is a w×h JPEG carrying EXIF orientation o (none when 0): its
// left fifth red, the rest grey.
func testJPEG(t testing.TB, w, h, o int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{128, 128, 128, 255}
			if x < w/5 {
				c = color.RGBA{255, 0, 0, 255}
			}
			m.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	if o == 0 {
		return b.Bytes()
	}
	tiff := []byte("MM\x00\x2a\x00\x00\x00\x08\x00\x01" + // big-endian, IFD0 at 8, one entry
		"\x01\x12\x00\x03\x00\x00\x00\x01" + string([]byte{0, byte(o), 0, 0}) + // Orientation SHORT
		"\x00\x00\x00\x00") // no next IFD
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := append([]byte{0xFF, 0xE1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)}, seg...)
	out := append([]byte{}, b.Bytes()[:2]...)
	out = append(out, app1...)
	return append(out, b.Bytes()[2:]...)
}

// list names the files of d.
func (d *Dir) list() ([]string, error) {
	es, err := os.ReadDir(d.path)
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out, err
}
