package respcache

import (
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
