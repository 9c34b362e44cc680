package app

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/testenv"
)

// photoPNG is a w×h opaque PNG.
func photoPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// s3Env is the environment of a server process keeping its images in s.
func s3Env(s testenv.S3) []string {
	return []string{"HMDP_IMAGE_STORE=" + s.Store(), "HMDP_S3_ENDPOINT=" + s.Endpoint, "HMDP_S3_REGION=" + s.Region,
		"HMDP_S3_ACCESS_KEY=" + s.AccessKey, "HMDP_S3_SECRET_KEY=" + s.SecretKey}
}

// fetchImage GETs url with Accept and returns the status, content type and body.
func fetchImage(t *testing.T, url, accept string) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, http.NoBody)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), body
}

// Instances sharing an S3 bucket (HMDP_IMAGE_STORE=s3://…): an upload
// through instance A, and its variants, are served by instance B; still
// after A is killed (kill -9), and by a new instance; deleted through B,
// they are gone for that instance too. No instance keeps an image file of
// its own.
func TestImagesInS3AcrossInstances(t *testing.T) {
	t.Parallel()
	store := testenv.RealS3(t) // skips unless make test-s3
	bin := buildServer(t)
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := sharedConfig(t, backend)
		cfg.ImageStore = config.ImageStore{Endpoint: store.Endpoint, Region: store.Region, Bucket: store.Bucket,
			Prefix: store.Prefix + backend + "/", AccessKey: store.AccessKey, SecretKey: store.SecretKey, Timeout: cfg.ImageStore.Timeout}
		bucket := store
		bucket.Prefix = cfg.ImageStore.Prefix
		b := startServerWith(t, backend, cfg)
		dirs := []string{cfg.DataDir}
		// Each process its own data directory, but for the embedded
		// database's file, which they share.
		process := func() (*testServer, *serverProcess) {
			pc := cfg
			if backend == testenv.Real {
				pc.DataDir = t.TempDir()
				dirs = append(dirs, pc.DataDir)
			}
			p := startProcess(t, bin, processEnv(pc, s3Env(bucket)...))
			return &testServer{t: t, URL: p.url, backend: backend}, p
		}
		a, aProc := process()
		token := b.login("13800000031")

		photo := photoPNG(t, 600, 400)
		r := a.upload(token, photo, true)
		var up struct{ UploadImage string }
		if len(r.Errors) > 0 || json.Unmarshal(r.Data, &up) != nil || !strings.HasPrefix(up.UploadImage, "/images/") {
			t.Fatalf("upload through A: %+v %s", r.Errors, r.Data)
		}
		path := up.UploadImage
		// Each width in each format, and the image as uploaded.
		want := func(ts *testServer, who string) {
			t.Helper()
			var sizes []int
			for _, c := range []struct{ query, accept, typ string }{
				{"?w=240", "image/webp", "image/webp"}, {"?w=480", "image/webp", "image/webp"}, {"?w=960", "image/webp", "image/webp"},
				{"?w=240", "", "image/jpeg"}, {"?w=480", "", "image/jpeg"}, {"?w=960", "", "image/jpeg"},
			} {
				code, typ, body := fetchImage(t, ts.URL+path+c.query, c.accept)
				if code != 200 || typ != c.typ || len(body) == 0 {
					t.Fatalf("%s: %s (Accept %q): %d %s, %d bytes", who, c.query, c.accept, code, typ, len(body))
				}
				sizes = append(sizes, len(body))
			}
			if sizes[0] >= sizes[1] || sizes[3] >= sizes[4] {
				t.Fatalf("%s: variants of %v bytes: the 240 px ones are not the smaller", who, sizes)
			}
			if code, typ, body := fetchImage(t, ts.URL+path, ""); code != 200 || typ != "image/png" || !bytes.Equal(body, photo) {
				t.Fatalf("%s: the image as uploaded: %d %s, equal %v", who, code, typ, bytes.Equal(body, photo))
			}
		}
		want(b, "B, after the upload through A")
		want(a, "A")

		if err := aProc.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = aProc.cmd.Wait()
		want(b, "B, A killed")
		c, _ := process()
		want(c, "a new instance C, A killed")

		b.ok(token, `mutation($p: String!) { deleteImage(path: $p) }`, map[string]any{"p": path}, nil)
		for _, ts := range []*testServer{b, c} {
			for _, q := range []string{"", "?w=240", "?w=960"} {
				if code, _, _ := fetchImage(t, ts.URL+path+q, "image/webp"); code != http.StatusNotFound {
					t.Fatalf("%s%s after the delete through B: %d, want 404", ts.URL, q, code)
				}
			}
		}
		for _, d := range dirs {
			if es, err := os.ReadDir(filepath.Join(d, "images")); err == nil && len(es) > 0 {
				t.Fatalf("%s holds image files: %d", d, len(es))
			}
		}
	})
}
