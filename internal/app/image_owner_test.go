package app

import (
	"net/http"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/testenv"
)

const (
	deleteImageMutation   = `mutation($p: String!) { deleteImage(path: $p) }`
	blogWithImageMutation = `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id images } }`
	iconMutation          = `mutation($in: UpdateProfileInput!) { updateProfile(input: $in) { id } }`
)

// Each upload records its uploader: only they may show it (blog images,
// profile icon) or delete it; someone else's image is refused with the
// field named, and deleting it is NOT_FOUND like an unknown path.
func TestImagesBelongToTheirUploader(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		alice, bob := ts.login("13800000011"), ts.login("13800000012")
		img := ts.uploadPath(alice)
		blogIn := map[string]any{"in": map[string]any{"title": "t", "content": "c", "images": []string{img}}}

		e := ts.fails(bob, blogWithImageMutation, blogIn, "BAD_USER_INPUT")
		if e.Extensions["field"] != "input.images.0" {
			t.Fatalf("field %v", e.Extensions["field"])
		}
		e = ts.fails(bob, iconMutation, map[string]any{"in": map[string]any{"icon": img}}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "input.icon" {
			t.Fatalf("field %v", e.Extensions["field"])
		}
		ts.ok(alice, blogWithImageMutation, blogIn, nil)
		ts.ok(alice, iconMutation, map[string]any{"in": map[string]any{"icon": img}}, nil)

		ts.fails(bob, deleteImageMutation, map[string]any{"p": img}, "NOT_FOUND")
		ts.fails(alice, deleteImageMutation, map[string]any{"p": "/images/00000000000000000000000000000000.png"}, "NOT_FOUND")
		ts.fails("", deleteImageMutation, map[string]any{"p": img}, "UNAUTHENTICATED")
		if got := ts.imageStatus(img); got != http.StatusOK {
			t.Fatalf("image served with %d before its deletion", got)
		}
		var out struct{ DeleteImage bool }
		ts.ok(alice, deleteImageMutation, map[string]any{"p": img}, &out)
		if !out.DeleteImage || ts.imageStatus(img) != http.StatusNotFound {
			t.Fatalf("deleted %v, served with %d", out.DeleteImage, ts.imageStatus(img))
		}
		ts.fails(alice, deleteImageMutation, map[string]any{"p": img}, "NOT_FOUND")
		ts.fails(alice, blogWithImageMutation, blogIn, "BAD_USER_INPUT")
	})
}

// Images nothing shows are removed: a deleted blog's (unless another blog
// still shows one), a replaced profile icon, and an upload never attached
// within HMDP_IMAGE_SWEEP_AGE.
func TestUnusedImagesAreRemoved(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		// Long enough that the uploads below are attached before the sweep
		// may take them on a loaded machine (at 2 s, under -race, it did).
		ts := startServer(t, backend, func(c *config.Config) { c.ImageSweepAge = 8 * time.Second })
		alice := ts.login("13800000013")
		only, shared, icon1, icon2, spare := ts.uploadPath(alice), ts.uploadPath(alice), ts.uploadPath(alice), ts.uploadPath(alice), ts.uploadPath(alice)
		var first struct{ CreateBlog struct{ ID string } }
		ts.ok(alice, blogWithImageMutation, map[string]any{"in": map[string]any{"title": "t", "content": "c", "images": []string{only, shared}}}, &first)
		ts.ok(alice, blogWithImageMutation, map[string]any{"in": map[string]any{"title": "t", "content": "c", "images": []string{shared}}}, nil)
		ts.ok(alice, iconMutation, map[string]any{"in": map[string]any{"icon": icon1}}, nil)
		ts.ok(alice, iconMutation, map[string]any{"in": map[string]any{"icon": icon2}}, nil)
		if got := ts.imageStatus(icon1); got != http.StatusNotFound {
			t.Fatalf("a replaced icon is served with %d", got)
		}
		ts.ok(alice, `mutation($id: ID!) { deleteBlog(id: $id) }`, map[string]any{"id": first.CreateBlog.ID}, nil)
		if got := ts.imageStatus(only); got != http.StatusNotFound {
			t.Fatalf("a deleted blog's image is served with %d", got)
		}
		testenv.Eventually(t, 30*time.Second, "the sweep of the never attached upload", func() bool {
			return ts.imageStatus(spare) == http.StatusNotFound
		})
		for _, p := range []string{shared, icon2} {
			if got := ts.imageStatus(p); got != http.StatusOK {
				t.Fatalf("%s, still shown, is served with %d", p, got)
			}
		}
		// The removed images can no longer be shown.
		e := ts.fails(alice, iconMutation, map[string]any{"in": map[string]any{"icon": icon1}}, "BAD_USER_INPUT")
		if e.Extensions["field"] != "input.icon" {
			t.Fatalf("field %v", e.Extensions["field"])
		}
	})
}

func (ts *testServer) imageStatus(path string) int {
	ts.t.Helper()
	req, err := http.NewRequestWithContext(ts.t.Context(), http.MethodGet, ts.URL+path, http.NoBody)
	if err != nil {
		ts.t.Fatal(err)
	}
	resp, err := ts.inProcess().Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}
