package image

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hmdp/hmdp/ent"
	entimage "github.com/hmdp/hmdp/ent/image"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/testenv"
)

type collectorFixture struct {
	t     *testing.T
	db    *database.DB
	store *Store
	c     *Collector
}

func newCollectorFixture(t *testing.T, db *database.DB) *collectorFixture {
	t.Helper()
	d, err := NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return newCollectorFixtureOn(t, db, d)
}

// newCollectorFixtureOn is a collector of a Store on b.
func newCollectorFixtureOn(t *testing.T, db *database.DB, b Blobs) *collectorFixture {
	t.Helper()
	s := NewWithBlobs(b)
	s.DB = db.Client
	c := NewCollector(s, CollectorConfig{OutboxInterval: 50 * time.Millisecond})
	return &collectorFixture{t: t, db: db, store: s, c: c}
}

func (f *collectorFixture) upload(user int64) string {
	f.t.Helper()
	p, err := f.store.SaveFor(context.Background(), user, bytes.NewReader(testPNG(f.t, 4, 3, false)))
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// blog writes a blog of user 7 showing paths, claiming them as createBlog does.
func (f *collectorFixture) blog(paths ...string) *ent.Blog {
	f.t.Helper()
	ctx := context.Background()
	var b *ent.Blog
	err := database.WithTx(ctx, f.db.Client, func(tx *ent.Tx) error {
		if err := f.c.Claim(ctx, tx, 7, "input.images", true, paths); err != nil {
			return err
		}
		var err error
		b, err = tx.Blog.Create().SetUserID(7).SetTitle("t").SetContent("c").SetImages(strings.Join(paths, ",")).Save(ctx)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return b
}

// deleteBlog deletes b and releases its images, as deleteBlog does.
func (f *collectorFixture) deleteBlog(b *ent.Blog) error {
	ctx := context.Background()
	var after func(context.Context)
	err := database.WithTx(ctx, f.db.Client, func(tx *ent.Tx) error {
		if err := tx.Blog.DeleteOneID(b.ID).Exec(ctx); err != nil {
			return err
		}
		var err error
		after, err = f.c.Release(ctx, tx, strings.Split(b.Images, ","))
		return err
	})
	if err != nil {
		return err
	}
	after(ctx)
	return nil
}

// exists reports whether path has its record, and how many of its files
// (the image and its variants) are stored.
func (f *collectorFixture) exists(ctx context.Context, path string) (record bool, files int) {
	f.t.Helper()
	n, err := f.db.Client.Image.Query().Where(entimage.ID(path)).Count(ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	return n == 1, len(f.store.blobsOf(ctx, path))
}

func (f *collectorFixture) wantKept(path string) {
	f.t.Helper()
	// A 4×3 image: the image, a JPEG and a WebP 4 pixels wide.
	if r, files := f.exists(f.t.Context(), path); !r || files != 3 {
		f.t.Fatalf("%s: record %v, %d files; want it kept, 3 files", path, r, files)
	}
}

func (f *collectorFixture) wantGone(path string) {
	f.t.Helper()
	if r, files := f.exists(f.t.Context(), path); r || files != 0 {
		f.t.Fatalf("%s: record %v, %d files; want it removed, variants too", path, r, files)
	}
}

// Deleting a blog removes its images, record and file, except those another
// blog or a profile still shows; a removal that fails is retried by the
// outbox until it succeeds.
func TestReleaseRemovesWhatNothingShows(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		f := newCollectorFixture(t, db)
		only, shared, icon := f.upload(7), f.upload(7), f.upload(7)
		if err := db.Client.User.Create().SetID(7).SetPhone("13800000007").SetIcon(icon).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		first := f.blog(only, shared, icon)
		f.blog(shared)
		if err := f.deleteBlog(first); err != nil {
			t.Fatal(err)
		}
		f.wantGone(only)
		f.wantKept(shared)
		f.wantKept(icon)

		// A file that cannot be removed (here a directory with something in
		// it) fails the removal after commit; the outbox retries it.
		stuck := f.upload(7)
		b := f.blog(stuck)
		file := f.store.testFile(stuck)
		if err := os.Remove(file); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(file+"/x", 0o750); err != nil {
			t.Fatal(err)
		}
		if err := f.deleteBlog(b); err != nil {
			t.Fatal(err)
		}
		if r, _ := f.exists(ctx, stuck); !r {
			t.Fatal("the record went although the file could not be removed")
		}
		if n, _ := f.c.Outbox().Pending(ctx); n != 1 {
			t.Fatalf("%d removals pending, want 1", n)
		}
		if err := os.Remove(file + "/x"); err != nil {
			t.Fatal(err)
		}
		f.c.Start()
		defer f.c.Close()
		testenv.Eventually(t, 5*time.Second, "the retried removal", func() bool {
			r, files := f.exists(ctx, stuck)
			n, _ := f.c.Outbox().Pending(ctx)
			return !r && files == 0 && n == 0
		})
	})
}

// The sweep removes uploads never attached within the sweep age, keeps
// attached ones and younger ones, and marks an old upload that something
// shows without having claimed it (a blog written before uploads were
// tracked) attached instead of removing it.
func TestSweepRemovesUploadsNeverAttached(t *testing.T) {
	testenv.ForEachDB(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		f := newCollectorFixture(t, db)
		unused, used, unclaimed := f.upload(7), f.upload(7), f.upload(7)
		f.blog(used)
		if err := db.Client.Blog.Create().SetUserID(7).SetTitle("old").SetContent("c").SetImages(unclaimed).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if n, err := f.c.Sweep(ctx); err != nil || n != 0 {
			t.Fatalf("sweep of young uploads removed %d (%v)", n, err)
		}
		f.c.now = func() time.Time { return time.Now().Add(DefaultSweepAge + time.Minute) }
		if n, err := f.c.Sweep(ctx); err != nil || n != 1 {
			t.Fatalf("sweep removed %d (%v), want 1", n, err)
		}
		f.wantGone(unused)
		f.wantKept(used)
		f.wantKept(unclaimed)
		if !db.Client.Image.GetX(ctx, unclaimed).Attached {
			t.Fatal("an old upload a blog shows was not marked attached")
		}
		// Past a batch: every old unused upload goes in one sweep.
		for range sweepBatch + 5 {
			f.upload(8)
		}
		if n, err := f.c.Sweep(ctx); err != nil || n != sweepBatch+5 {
			t.Fatalf("sweep removed %d (%v), want %d", n, err, sweepBatch+5)
		}
	})
}

// A blog being written claims its images in its own transaction: a sweep
// that runs meanwhile waits for it and then keeps the image, and a blog that
// claims an image the sweep removed is refused with the field named.
func TestClaimAndSweepDoNotCross(t *testing.T) {
	ctx := context.Background()
	db := testenv.NewMySQL(t) // row locks: SQLite serializes transactions whole
	f := newCollectorFixture(t, db)
	f.c.now = func() time.Time { return time.Now().Add(DefaultSweepAge + time.Minute) }
	img := f.upload(7)

	tx, err := db.Client.Tx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.c.Claim(ctx, tx, 7, "input.images", true, []string{img}); err != nil {
		t.Fatal(err)
	}
	swept := make(chan int, 1)
	go func() {
		n, err := f.c.Sweep(ctx)
		if err != nil {
			t.Error(err)
		}
		swept <- n
	}()
	select {
	case n := <-swept:
		t.Fatalf("the sweep did not wait for the claiming transaction (removed %d)", n)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx.Blog.Create().SetUserID(7).SetTitle("t").SetContent("c").SetImages(img).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := <-swept; n != 0 {
		t.Fatalf("the sweep removed %d images, want 0", n)
	}
	f.wantKept(img)

	// The other order: the sweep removes an unclaimed upload, and a claim
	// that comes after is refused.
	late := f.upload(7)
	if n, err := f.c.Sweep(ctx); err != nil || n != 1 {
		t.Fatalf("sweep removed %d (%v), want 1", n, err)
	}
	err = database.WithTx(ctx, db.Client, func(tx *ent.Tx) error {
		return f.c.Claim(ctx, tx, 7, "input.images", true, []string{late})
	})
	if e, ok := apperr.As(err); !ok || e.Code != apperr.BadUserInput || e.Field != "input.images.0" {
		t.Fatalf("claim of a swept image: %v", err)
	}
}
