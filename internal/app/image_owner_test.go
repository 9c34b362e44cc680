package app

import (
	"net/http"
	"testing"
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

func (ts *testServer) imageStatus(path string) int {
	ts.t.Helper()
	resp, err := ts.inProcess().Get(ts.URL + path)
	if err != nil {
		ts.t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}
