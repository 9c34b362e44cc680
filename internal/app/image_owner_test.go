package app

import (
	"net/http"
	"testing"
	"time"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/gqlclient"
	"github.com/hmdp/hmdp/internal/testenv"
)

const deleteImageMutation = `mutation($p: String!) { deleteImage(path: $p) }`

// Each upload records its uploader: only they may show it (blog images,
// profile icon) or delete it; someone else's image is refused with the
// field named, and deleting it is NOT_FOUND like an unknown path.
func TestImagesBelongToTheirUploader(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		ts := startServer(t, backend)
		alice, bob := ts.login("13800000011"), ts.login("13800000012")
		asAlice, asBob := ts.gql(alice), ts.gql(bob)
		img := ts.uploadPath(alice)
		blogIn := gqlclient.CreateBlogInput{Title: "t", Content: "c", Images: []string{img}}
		iconIn := gqlclient.UpdateProfileInput{Icon: &img}

		wantField(t, errOf(gqlclient.CreateBlog(ctx, asBob, blogIn)), "input.images.0")
		wantField(t, errOf(gqlclient.UpdateProfile(ctx, asBob, iconIn)), "input.icon")
		must(gqlclient.CreateBlog(ctx, asAlice, blogIn))(t)
		must(gqlclient.UpdateProfile(ctx, asAlice, iconIn))(t)

		wantCode(t, errOf(gqlclient.DeleteImage(ctx, asBob, img)), "NOT_FOUND")
		wantCode(t, errOf(gqlclient.DeleteImage(ctx, asAlice, "/images/00000000000000000000000000000000.png")), "NOT_FOUND")
		wantCode(t, errOf(gqlclient.DeleteImage(ctx, ts.gql(""), img)), "UNAUTHENTICATED")
		if got := ts.imageStatus(img); got != http.StatusOK {
			t.Fatalf("image served with %d before its deletion", got)
		}
		deleted := must(gqlclient.DeleteImage(ctx, asAlice, img))(t).DeleteImage
		if !deleted || ts.imageStatus(img) != http.StatusNotFound {
			t.Fatalf("deleted %v, served with %d", deleted, ts.imageStatus(img))
		}
		wantCode(t, errOf(gqlclient.DeleteImage(ctx, asAlice, img)), "NOT_FOUND")
		wantCode(t, errOf(gqlclient.CreateBlog(ctx, asAlice, blogIn)), "BAD_USER_INPUT")
	})
}

// Images nothing shows are removed: a deleted blog's (unless another blog
// still shows one), a replaced profile icon, and an upload never attached
// within HMDP_IMAGE_SWEEP_AGE.
func TestUnusedImagesAreRemoved(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := t.Context()
		// Long enough that the uploads below are attached before the sweep
		// may take them on a loaded machine (at 2 s, under -race, it did).
		ts := startServer(t, backend, func(c *config.Config) { c.ImageSweepAge = 8 * time.Second })
		alice := ts.login("13800000013")
		asAlice := ts.gql(alice)
		only, shared, icon1, icon2, spare := ts.uploadPath(alice), ts.uploadPath(alice), ts.uploadPath(alice), ts.uploadPath(alice), ts.uploadPath(alice)
		first := must(gqlclient.CreateBlog(ctx, asAlice, gqlclient.CreateBlogInput{Title: "t", Content: "c", Images: []string{only, shared}}))(t).CreateBlog
		must(gqlclient.CreateBlog(ctx, asAlice, gqlclient.CreateBlogInput{Title: "t", Content: "c", Images: []string{shared}}))(t)
		must(gqlclient.UpdateProfile(ctx, asAlice, gqlclient.UpdateProfileInput{Icon: &icon1}))(t)
		must(gqlclient.UpdateProfile(ctx, asAlice, gqlclient.UpdateProfileInput{Icon: &icon2}))(t)
		if got := ts.imageStatus(icon1); got != http.StatusNotFound {
			t.Fatalf("a replaced icon is served with %d", got)
		}
		must(gqlclient.DeleteBlog(ctx, asAlice, first.Id))(t)
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
		wantField(t, errOf(gqlclient.UpdateProfile(ctx, asAlice, gqlclient.UpdateProfileInput{Icon: &icon1})), "input.icon")
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
