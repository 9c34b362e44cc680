package webapp

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every operation the web app defines, in any of its sources (the generated
// src/gql aside), is one of OperationNames: the server labels its metrics
// with these names only.
func TestOperationNamesCoverTheApp(t *testing.T) {
	known := OperationNames()
	found := map[string]string{}
	err := filepath.WalkDir("src", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == filepath.Join("src", "gql") {
				return fs.SkipDir // generated from the documents below
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".ts" && ext != ".vue" || strings.HasSuffix(p, ".test.ts") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, name := range OperationNamesIn(string(src)) {
			found[name] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range found {
		if !slices.Contains(known, name) {
			t.Errorf("operation %s (in %s) is not in OperationNames: embed its file in operations.go", name, p)
		}
	}
	// The ones the app cannot do without, and the upload, sent apart from the others.
	for _, name := range []string{"Shop", "Shops", "Me", "Login", "SendCode", "Seckill", "Feed", "FeedItems", "UploadImage"} {
		if !slices.Contains(known, name) {
			t.Errorf("%s missing from %v", name, known)
		}
	}
	if len(found) < 30 || len(known) != len(found) {
		t.Errorf("%d operations in the app's sources, %d known: %v", len(found), len(known), known)
	}
}

func TestOperationNamesIn(t *testing.T) {
	src := "const a = graphql(`\n  query Shop($id: ID!) {\n shop(id: $id) { id } }`)\n" +
		"const b = 'mutation UploadImage($file: Upload!) { uploadImage(file: $file) }'\n" +
		"const c = graphql(`subscription FeedItems { feedItems { id } }`)\n" +
		"const d = graphql(`query Q @live { a }`)\n" +
		"// a query named in prose is not one: query results\n" +
		"const f = graphql(`fragment ShopCard on Shop { id }`)\n"
	if got, want := OperationNamesIn(src), []string{"Shop", "UploadImage", "FeedItems", "Q"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
