package docscheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/apperr"
)

// docs/API.md's table of error codes (§2.5 Errors) has one row for each of
// apperr's codes, and no other.
func TestErrorCodes(t *testing.T) {
	var api *doc
	for _, d := range readDocs(t) {
		if d.name == "docs/API.md" {
			api = d
		}
	}
	if api == nil {
		t.Fatal("no docs/API.md")
	}
	rows, _ := table(api, "Errors")
	if rows == nil {
		t.Fatalf("docs/API.md: no table under a heading ending in %q", "Errors")
	}
	codes := apperr.Codes()
	inTable := map[apperr.Code]bool{}
	for _, r := range rows {
		c := apperr.Code(strings.Trim(r.cells[0], "`"))
		if !slices.Contains(codes, c) {
			t.Errorf("%s: %s is not one of apperr's codes (internal/apperr)", api.pos(r.line), c)
		}
		if inTable[c] {
			t.Errorf("%s: %s has a second row", api.pos(r.line), c)
		}
		inTable[c] = true
	}
	for _, c := range codes {
		if !inTable[c] {
			t.Errorf("docs/API.md: the table of error codes has no row for %s", c)
		}
	}
}
