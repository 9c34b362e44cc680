package image

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/apperr"
)

// FuzzSave uploads arbitrary bytes: Save must never panic, must refuse
// anything that is not a JPEG, PNG or WebP that decodes with BAD_USER_INPUT
// on "file", and must store what it accepts byte for byte, under a name of
// its own whose extension matches the sniffed type, that Owns recognises,
// with its variants.
func FuzzSave(f *testing.F) {
	for _, b := range [][]byte{
		nil,
		[]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"),
		[]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
		[]byte("RIFF\x24\x00\x00\x00WEBPVP8 "),
		[]byte("GIF89a\x01\x00\x01\x00"),
		[]byte("<html><script>alert(1)</script>"),
		[]byte("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
		[]byte("%PDF-1.4"),
		testPNG(f, 3, 2, false),
		testPNG(f, 2, 2, true),
		testJPEG(f, 5, 4, 6),
	} {
		f.Add(b)
	}
	s, err := New(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		path, err := s.Save(context.Background(), bytes.NewReader(b))
		sniffed := http.DetectContentType(b)
		ext, accepted := extByType[sniffed]
		if accepted {
			cfg, err := decodeConfig(ext, b)
			_, derr := decode(ext, b)
			accepted = err == nil && derr == nil && cfg.Width*cfg.Height <= MaxPixels && cfg.Width <= MaxSide && cfg.Height <= MaxSide
		}
		if err != nil {
			if e, ok := apperr.As(err); !ok || e.Code != apperr.BadUserInput || e.Field != "file" {
				t.Fatalf("Save: %v, want BAD_USER_INPUT on file", err)
			}
			if accepted && len(b) <= MaxBytes {
				t.Fatalf("a readable %s of %d bytes was refused: %v", sniffed, len(b), err)
			}
			return
		}
		if !accepted {
			t.Fatalf("stored %s, sniffed as %s, which does not decode", path, sniffed)
		}
		if !strings.HasSuffix(path, ext) || !s.Owns(path) {
			t.Fatalf("path %q (want a name of its own ending %s)", path, ext)
		}
		got, err := os.ReadFile(s.testFile(path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, b) {
			t.Fatalf("stored %d bytes, uploaded %d", len(got), len(b))
		}
		if n := len(s.blobsOf(t.Context(), path)); n < 3 {
			t.Fatalf("%d files stored, want the image and at least a JPEG/PNG and a WebP variant", n)
		}
		if err := s.remove(context.Background(), path); err != nil {
			t.Fatal(err)
		}
	})
}
