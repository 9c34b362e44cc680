package image

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"
)

// The demo pictures: illustrations of the shops and posts of the demo data
// (scripts/hmdp.sql and the embedded seed), and avatars for its users, shipped in the binary from
// internal/image/demo (its README says how they are made and licensed).
// The demo data's image references (shop photos on Dianping/Meituan CDNs,
// post photos under /imgs/ that no server here has) stay as they are in
// the database; Shown (ShownIcon for user icons) maps them when they are read. The pictures are
// served at /images/demo-<picture>.jpg with the variants of uploads.
//
//go:embed demo/refs.tsv demo/icons.tsv demo/*.webp demo/*.jpg
var demoFS embed.FS

// demoName is the form of a demo picture's name under URLPrefix.
var demoName = regexp.MustCompile(`^demo-[a-z0-9-]+\.jpg$`)

// demoRefs maps each image reference of the demo data's shops and posts to
// its picture's path, demoIcons each user icon of the demo data to its
// avatar's (user 1's icon is a post photo, shown as an avatar instead).
var (
	demoRefs  = loadDemoRefs("demo/refs.tsv")
	demoIcons = loadDemoRefs("demo/icons.tsv")
)

func loadDemoRefs(file string) map[string]string {
	b, err := demoFS.ReadFile(file)
	if err != nil {
		panic(err)
	}
	refs := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<16)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		picture, ref, ok := strings.Cut(line, "\t")
		if !ok {
			panic(file + ": no tab in " + line)
		}
		refs[ref] = URLPrefix + "demo-" + picture + ".jpg"
	}
	return refs
}

// Shown is what to show for the image references of a shop or a blog: the
// demo data's references replaced by their pictures (each picture once),
// empty references (a trailing comma in the demo data) left out, and every
// other reference (uploads, other URLs) as it is.
func Shown(refs []string) []string {
	out := make([]string, 0, len(refs))
	seen := map[string]bool{}
	for _, r := range refs {
		if r == "" {
			continue
		}
		if p, ok := demoRefs[r]; ok {
			if seen[p] {
				continue
			}
			seen[p] = true
			r = p
		}
		out = append(out, r)
	}
	return out
}

// ShownIcon is what to show for a user's icon: the demo data's icons
// replaced by their avatars, every other icon (uploads, "" for none) as it
// is.
func ShownIcon(icon string) string {
	if p, ok := demoIcons[icon]; ok {
		return p
	}
	return icon
}

// demoLeftOut is the variant the demo pictures do without: the widest JPEG,
// which alone would take 740 KB of the repository. Browsers take WebP; a
// client that does not gets the next narrower JPEG.
var demoLeftOut = fmt.Sprintf(".w%d.jpg", Widths[len(Widths)-1])

// demoBlobs serves the demo pictures read-only from demoFS: the blob
// demo-<picture>.jpg (the picture as such) is its widest JPEG variant, and
// demo-<picture>.w<W>.<ext> is demo/<picture>.w<W>.<ext>.
type demoBlobs struct{}

var errDemoReadOnly = errors.New("image: the demo pictures are read-only")

func (demoBlobs) path(name string) string {
	name = strings.TrimPrefix(name, "demo-")
	if base, ok := strings.CutSuffix(name, ".jpg"); ok && !strings.Contains(base, ".") {
		name = variantName(base, Widths[len(Widths)-2], "jpg")
	}
	return "demo/" + name
}

func (demoBlobs) Put(context.Context, string, []byte) error { return errDemoReadOnly }
func (demoBlobs) Remove(context.Context, string) error      { return errDemoReadOnly }

func (d demoBlobs) Open(_ context.Context, name string) (io.ReadSeekCloser, BlobInfo, error) {
	f, err := demoFS.Open(d.path(name))
	if err != nil {
		return nil, BlobInfo{}, err
	}
	st, err := f.Stat()
	rs, ok := f.(io.ReadSeekCloser)
	if err != nil || !ok {
		_ = f.Close()
		return nil, BlobInfo{}, errors.Join(fs.ErrNotExist, err)
	}
	return rs, BlobInfo{Size: st.Size(), ModTime: st.ModTime()}, nil
}

func (d demoBlobs) Stat(_ context.Context, name string) (BlobInfo, error) {
	st, err := fs.Stat(demoFS, d.path(name))
	if err != nil {
		return BlobInfo{}, err
	}
	return BlobInfo{Size: st.Size(), ModTime: st.ModTime()}, nil
}
