package graphapi

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/testenv"
)

// webAppDocuments are the documents of the web app, as its generated client
// lists them (web/app/src/gql/gql.ts), each operation with every fragment.
func webAppDocuments(t *testing.T) []string {
	t.Helper()
	ops, frags, err := testenv.WebAppDocuments("../..")
	if err != nil {
		t.Fatal(err)
	}
	all := ""
	for _, f := range frags {
		all += f
	}
	out := make([]string, 0, len(ops))
	for _, op := range ops {
		out = append(out, op+all)
	}
	return out
}

// The default limits admit everything well-behaved clients send: each of the
// web app's documents (with all its fragments, more than it sends) and
// GraphiQL's schema query, with room to spare.
func TestDocumentLimitAdmitsTheWebApp(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	limit := documentLimit{MaxBytes: cfg.MaxQueryBytes, MaxTokens: cfg.MaxQueryTokens, MaxWork: cfg.MaxFieldComparisons}
	for _, doc := range append(webAppDocuments(t), graphiqlSchemaQuery(t)) {
		if err := limit.MutateOperationParameters(context.Background(), &graphql.RawParams{Query: doc}); err != nil {
			t.Errorf("%v\n%s", err, doc)
		}
		parsed, err := parser.ParseQuery(&ast.Source{Input: doc})
		if err != nil {
			t.Fatal(err)
		}
		if w := validationWork(parsed, cfg.MaxFieldComparisons); w > cfg.MaxFieldComparisons/10 {
			t.Errorf("%d comparisons, a tenth of the limit or more:\n%s", w, doc)
		}
	}
}

// validationWork counts pairs of fields sharing a response name, through
// fragments, and stops at the limit however the fragments multiply.
func TestValidationWork(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		doc  string
		want int
	}{
		{`{ a b c }`, 3},                               // three fields flattened, no pair
		{`{ a a }`, 2 + 1},                             // two flattened, one pair
		{`{ a: b a: c }`, 2 + 1},                       // aliases share the response name
		{`{ a { x } a { x } }`, 2 + 1 + 2 + 1 + 1 + 1}, // the pair, its sub-selections flattened and compared, and each visited
		// The operation's set: 2 spreads + 2 fields flattened, 1 pair; F
		// visited once from the operation and once as a definition.
		{`query { ...F ...F } fragment F on Q { a }`, 4 + 1 + 1 + 1},
		// A cycle is followed once per flattening, not forever: the
		// operation's set flattens to 3; F's own to 4 with a pair (a twice),
		// from the operation and as a definition.
		{`query { ...F } fragment F on Q { ...F a }`, 3 + 5 + 5},
	} {
		doc, err := parser.ParseQuery(&ast.Source{Input: c.doc})
		if err != nil {
			t.Fatal(err)
		}
		if got := validationWork(doc, 1000); got != c.want {
			t.Errorf("%s: %d, want %d", c.doc, got, c.want)
		}
	}
	var b strings.Builder
	for i := range 40 { // 2^40 fields if flattened all the way
		b.WriteString("fragment f" + itoa(i) + " on Q { ...f" + itoa(i+1) + " ...f" + itoa(i+1) + " } ")
	}
	b.WriteString("fragment f40 on Q { a } query { ...f0 }")
	doc, err := parser.ParseQuery(&ast.Source{Input: b.String()})
	if err != nil {
		t.Fatal(err)
	}
	if got := validationWork(doc, 10000); got != 10001 {
		t.Errorf("doubling fragments: %d, want the limit + 1", got)
	}
}

// graphiqlSchemaQuery is GraphiQL's schema query, the largest document a
// well-behaved client sends.
func graphiqlSchemaQuery(t *testing.T) string {
	t.Helper()
	q, err := os.ReadFile("testdata/graphiql-schema-query.graphql")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(q), "\n")
}

func itoa(i int) string { return strconv.Itoa(i) }
