package blog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/like"
	"github.com/hmdp/hmdp/internal/testenv"
)

type noImages struct{}

func (noImages) Owns(string) bool { return false }

// failingFanout fails every delete (the feed's Redis is down).
type failingFanout struct{ deletes int }

func (*failingFanout) Published(context.Context, *ent.Blog) error { return nil }
func (f *failingFanout) Deleted(context.Context, *ent.Blog) error {
	f.deletes++
	return errors.New("injected: fan-out")
}

// A delete whose after-commit fan-out fails still succeeds (it is committed:
// before, it returned the error and the client's retry got NOT_FOUND), and the
// blog's like set is dropped with it.
func TestDeleteSucceedsOnceCommitted(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		ctx := context.Background()
		db := b.DB.Client
		likes := like.New(like.Config{DB: db, Redis: b.Redis.Client, Prefix: b.Redis.Prefix})
		fan := &failingFanout{}
		s := New(Config{DB: db, Images: noImages{}, Likes: likes, Fanout: fan,
			Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
		author := db.User.Create().SetPhone("13800000001").SaveX(ctx).ID
		fan2 := db.User.Create().SetPhone("13800000002").SaveX(ctx).ID
		bl, err := s.Create(ctx, author, Input{Title: "t", Content: "c"})
		if err != nil {
			t.Fatal(err)
		}
		if err := likes.Set(ctx, fan2, bl.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, err := likes.Infos(ctx, fan2, []int64{bl.ID}); err != nil { // the like set exists
			t.Fatal(err)
		}
		if err := s.Delete(ctx, author, bl.ID); err != nil {
			t.Fatalf("a committed delete reported %v", err)
		}
		if fan.deletes != 1 {
			t.Fatalf("fan-out asked %d times", fan.deletes)
		}
		if got, err := s.Get(ctx, bl.ID); got != nil || err != nil {
			t.Fatalf("blog still there: %v %v", got, err)
		}
		key := fmt.Sprintf("%sblog:{%d}:likes", b.Redis.Prefix, bl.ID)
		if n, err := b.Redis.Client.Exists(ctx, key).Result(); err != nil || n != 0 {
			t.Fatalf("like set left: %d %v", n, err)
		}
		if n, _ := likes.Outbox().Pending(ctx); n != 0 {
			t.Fatalf("%d outbox rows left", n)
		}
		if err := s.Delete(ctx, author, bl.ID); apperr.CodeOf(err) != apperr.NotFound {
			t.Fatalf("second delete: %v", err)
		}
	})
}
