package responsecache

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

func TestIsJSON(t *testing.T) {
	for ct, want := range map[string]bool{
		"application/json":                true,
		"application/json; charset=utf-8": true,
		"Application/JSON":                true,
		"application/jsonp":               false,
		"application/graphql":             false,
		"text/plain":                      false,
		"":                                false,
	} {
		if got := isJSON(ct); got != want {
			t.Errorf("isJSON(%q) = %v, want %v", ct, got, want)
		}
	}
}

func TestMatches(t *testing.T) {
	const tag = `"abc"`
	for header, want := range map[string]bool{
		`"abc"`:          true,
		`W/"abc"`:        true,
		`"x", "abc"`:     true,
		`*`:              true,
		`"abcd"`:         false,
		`abc`:            false,
		``:               false,
		`"x" , "y"`:      false,
		` "abc" , "x" `:  true,
		`"x",W/"abc"`:    true,
		`"a","b","c"`:    false,
		`"abc"garbage`:   false,
		`W/"x", W/"abc"`: true,
	} {
		if got := matches(header, tag); got != want {
			t.Errorf("matches(%q) = %v, want %v", header, got, want)
		}
	}
}

var schema = gqlparser.MustLoadSchema(&ast.Source{Input: `
type Query { shop(id: ID!): Shop  other: Int }
type Shop { id: ID! name: String! uvToday: Int! type: Type! }
type Type { name: String! }
`})

// A selection is kept only when it reaches nothing but allowed scalar
// fields, through fragments too, and carries no directive anywhere.
func TestPureSelections(t *testing.T) {
	allowed := map[string]bool{"id": true, "name": true}
	for q, want := range map[string]bool{
		`{ shop(id: 1) { id name } }`:                                           true,
		`{ shop(id: 1) { id __typename } }`:                                     true,
		`{ shop(id: 1) { ...F } } fragment F on Shop { id name }`:               true,
		`{ shop(id: 1) { ... on Shop { name } } }`:                              true,
		`{ shop(id: 1) { id uvToday } }`:                                        false,
		`{ shop(id: 1) { id type { name } } }`:                                  false,
		`{ shop(id: 1) { ...F } } fragment F on Shop { id uvToday }`:            false,
		`{ shop(id: 1) { id name @include(if: true) } }`:                        false,
		`{ shop(id: 1) { ... on Shop @skip(if: false) { name } } }`:             false,
		`{ shop(id: 1) { ...F @include(if: true) } } fragment F on Shop { id }`: false,
	} {
		doc, errs := gqlparser.LoadQueryWithRules(schema, q, nil)
		if errs != nil {
			t.Fatalf("%s: %v", q, errs)
		}
		root := doc.Operations[0].SelectionSet[0].(*ast.Field)
		got := len(root.Directives) == 0 && pure(doc, root.SelectionSet, allowed)
		if got != want {
			t.Errorf("%s: pure = %v, want %v", q, got, want)
		}
	}
}

// The key holds the content type the Accept header picks, as gqlgen's
// transports pick it: two values, whatever the header says.
func TestResponseType(t *testing.T) {
	const js, gql = "application/json", "application/graphql-response+json"
	for accept, want := range map[string]string{
		"":                                  js,
		"*/*":                               js,
		"application/*":                     js,
		"application/json":                  js,
		"application/json; charset=utf-8":   js,
		gql:                                 gql,
		gql + ", application/json":          gql,
		"text/html, application/json;q=0.9": js,
		"text/html":                         gql,
		"garbage;;;":                        gql,
		strings.Repeat("x", 1<<20):          gql,
		"text/html, " + strings.Repeat("a/b;q=1, ", 1000) + "*/*": js,
	} {
		if got := responseType(accept); got != want {
			t.Errorf("responseType(%.40q) = %q, want %q", accept, got, want)
		}
	}
}

// Vary is added to, not replaced: CORS's Origin stays.
func TestVaryAccept(t *testing.T) {
	h := http.Header{}
	h.Add("Vary", "Origin")
	varyAccept(h)
	varyAccept(h)
	if got := h.Values("Vary"); !slices.Equal(got, []string{"Origin", "Accept"}) {
		t.Fatalf("Vary %q, want Origin and Accept once each", got)
	}
	h = http.Header{"Vary": {"origin, accept"}}
	varyAccept(h)
	if got := h.Values("Vary"); len(got) != 1 {
		t.Fatalf("Vary %q: Accept added twice", got)
	}
}

// The answers kept are bounded by bytes, not only by count: many distinct
// long requests with long answers stay under MaxBytes.
func TestStoreIsBoundedByBytes(t *testing.T) {
	const maxBytes = 1 << 20
	c := New(Config{MaxBytes: maxBytes, Anonymous: func(context.Context) bool { return true }})
	body := bytes.Repeat([]byte("x"), maxResponse)
	for i := range 1000 {
		key := fmt.Sprintf("AGET\x00application/json\x00%d%s", i, strings.Repeat("q", maxKey))
		c.store(key, &entry{body: body})
		if c.Bytes() > maxBytes {
			t.Fatalf("after %d answers: %d bytes kept, more than %d", i+1, c.Bytes(), maxBytes)
		}
	}
	if n := c.Len(); n == 0 || n > maxBytes/maxResponse {
		t.Fatalf("%d answers kept", n)
	}
	// Replacing an answer does not count it twice.
	c = New(Config{MaxBytes: maxBytes})
	for range 100 {
		c.store("k", &entry{body: body})
	}
	if c.Len() != 1 || c.Bytes() != entryCost("k", &entry{body: body}) {
		t.Fatalf("one key stored 100 times: %d answers, %d bytes", c.Len(), c.Bytes())
	}
	// The default is a byte bound too.
	if New(Config{}).cfg.MaxBytes <= 0 {
		t.Fatal("no default byte bound")
	}
}
