package image

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/testenv"
)

// forEachBlobs runs fn on a Dir and, when HMDP_TEST_S3_ENDPOINT is set (make
// test-s3), on the S3 store under a prefix of the test's own.
func forEachBlobs(t *testing.T, fn func(t *testing.T, b Blobs)) {
	t.Helper()
	t.Run("dir", func(t *testing.T) {
		d, err := NewDir(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		fn(t, d)
	})
	t.Run("s3", func(t *testing.T) { fn(t, newTestS3(t, nil)) })
}

// blobNameFor is a name no other test uses (the S3 bucket is shared).
func blobNameFor(ext string) string { return testenv.RandomHex(16) + ext }

// readAll opens name and reads it whole.
func readAll(t *testing.T, b Blobs, name string) ([]byte, BlobInfo) {
	t.Helper()
	f, info, err := b.Open(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return got, info
}

func wantNotExist(t *testing.T, b Blobs, name string) {
	t.Helper()
	if _, err := b.Stat(t.Context(), name); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Stat(%s): %v, want fs.ErrNotExist", name, err)
	}
	if f, _, err := b.Open(t.Context(), name); !errors.Is(err, fs.ErrNotExist) {
		if f != nil {
			f.Close()
		}
		t.Fatalf("Open(%s): %v, want fs.ErrNotExist", name, err)
	}
}

// The behaviours every Blobs has, local files and object store alike: the
// image pipeline (Save, the handler, removals, the collector) relies on
// each of them.
func TestBlobsContract(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("0123456789"), 10_000) // 100 KB: past one read and the drain bound
	forEachBlobs(t, func(t *testing.T, b Blobs) {
		t.Run("put, then open and stat", func(t *testing.T) {
			t.Parallel()
			name := blobNameFor(".w240.webp")
			if err := b.Put(t.Context(), name, data); err != nil {
				t.Fatal(err)
			}
			got, info := readAll(t, b, name)
			if !bytes.Equal(got, data) || info.Size != int64(len(data)) {
				t.Fatalf("read %d bytes (equal %v), info %+v; want the %d put", len(got), bytes.Equal(got, data), info, len(data))
			}
			if d := time.Since(info.ModTime); d < -time.Minute || d > time.Minute {
				t.Fatalf("modification time %v, want about now", info.ModTime)
			}
			st, err := b.Stat(t.Context(), name)
			if err != nil || st.Size != info.Size || !st.ModTime.Equal(info.ModTime) {
				t.Fatalf("Stat %+v %v, want %+v", st, err, info)
			}
		})
		t.Run("a missing blob is fs.ErrNotExist", func(t *testing.T) {
			t.Parallel()
			wantNotExist(t, b, blobNameFor(".jpg"))
			// A name that could not have been stored is missing too.
			wantNotExist(t, b, "../escape.jpg")
		})
		t.Run("a bad name is refused", func(t *testing.T) {
			t.Parallel()
			for _, n := range []string{"../x.jpg", "A.jpg", "", "a/b.jpg"} {
				if err := b.Put(t.Context(), n, data); err == nil {
					t.Errorf("Put(%q) accepted", n)
				}
			}
		})
		t.Run("remove, and remove what is gone", func(t *testing.T) {
			t.Parallel()
			name := blobNameFor(".png")
			if err := b.Put(t.Context(), name, data[:10]); err != nil {
				t.Fatal(err)
			}
			if err := b.Remove(t.Context(), name); err != nil {
				t.Fatal(err)
			}
			wantNotExist(t, b, name)
			if err := b.Remove(t.Context(), name); err != nil {
				t.Fatalf("second remove: %v", err)
			}
		})
		t.Run("put replaces", func(t *testing.T) {
			t.Parallel()
			name := blobNameFor(".jpg")
			for _, d := range [][]byte{data, data[:7]} {
				if err := b.Put(t.Context(), name, d); err != nil {
					t.Fatal(err)
				}
			}
			if got, _ := readAll(t, b, name); !bytes.Equal(got, data[:7]) {
				t.Fatalf("read %q, want the second put", got)
			}
		})
		t.Run("concurrent puts of one name leave one of them whole", func(t *testing.T) {
			t.Parallel()
			name := blobNameFor(".webp")
			payloads := make([][]byte, 8)
			for i := range payloads {
				payloads[i] = bytes.Repeat([]byte{byte('a' + i)}, 1000*(i+1))
			}
			var wg sync.WaitGroup
			for _, p := range payloads {
				wg.Go(func() {
					if err := b.Put(context.Background(), name, p); err != nil {
						t.Error(err)
					}
				})
			}
			// Readers meanwhile see nothing or one payload whole.
			for range 20 {
				f, _, err := b.Open(t.Context(), name)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(f)
				f.Close()
				if err != nil || !slices.ContainsFunc(payloads, func(p []byte) bool { return bytes.Equal(p, got) }) {
					t.Fatalf("read %d bytes (%v) while putting: not one payload whole", len(got), err)
				}
			}
			wg.Wait()
			got, info := readAll(t, b, name)
			if !slices.ContainsFunc(payloads, func(p []byte) bool { return bytes.Equal(p, got) }) || info.Size != int64(len(got)) {
				t.Fatalf("after concurrent puts: %d bytes, size %d, not one payload whole", len(got), info.Size)
			}
		})
		t.Run("seek: size, ranges, back and forth", func(t *testing.T) {
			t.Parallel()
			name := blobNameFor(".jpg")
			if err := b.Put(t.Context(), name, data); err != nil {
				t.Fatal(err)
			}
			f, _, err := b.Open(t.Context(), name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			// http.ServeContent's size probe.
			if n, err := f.Seek(0, io.SeekEnd); err != nil || n != int64(len(data)) {
				t.Fatalf("Seek(0, End) = %d %v", n, err)
			}
			for _, at := range []int64{0, 5, 70_000, 1_000, int64(len(data)) - 3, 0} {
				if n, err := f.Seek(at, io.SeekStart); err != nil || n != at {
					t.Fatalf("Seek(%d) = %d %v", at, n, err)
				}
				want := data[at:min(at+10, int64(len(data)))]
				got := make([]byte, len(want))
				if _, err := io.ReadFull(f, got); err != nil || !bytes.Equal(got, want) {
					t.Fatalf("at %d: read %q (%v), want %q", at, got, err, want)
				}
			}
			if n, err := f.Seek(-4, io.SeekCurrent); err != nil || n != 6 {
				t.Fatalf("Seek(-4, Current) = %d %v", n, err)
			}
			if rest, err := io.ReadAll(f); err != nil || !bytes.Equal(rest, data[6:]) {
				t.Fatalf("the rest from 6: %d bytes %v", len(rest), err)
			}
			if _, err := f.Seek(-1, io.SeekStart); err == nil {
				t.Fatal("a negative position accepted")
			}
		})
		t.Run("an empty blob", func(t *testing.T) {
			t.Parallel()
			name := blobNameFor(".png")
			if err := b.Put(t.Context(), name, nil); err != nil {
				t.Fatal(err)
			}
			if got, info := readAll(t, b, name); len(got) != 0 || info.Size != 0 {
				t.Fatalf("read %d bytes, size %d", len(got), info.Size)
			}
		})
	})
}
