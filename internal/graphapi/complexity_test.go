package graphapi

import (
	"context"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/complexity"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/hmdp/hmdp/graph"
	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/testenv"
)

// appPageSizes is, per operation, the largest `first` the web app's code
// passes it, read from its sources.
func appPageSizes(t *testing.T) map[string]int {
	t.Helper()
	sizes, err := testenv.WebAppPageSizes("../..")
	if err != nil {
		t.Fatal(err)
	}
	return sizes
}

// defaultFirst is a connection's page size when `first` is not given.
const defaultFirst = 10

// Every operation the web app sends (read from its generated documents, not
// pasted here) fits the default complexity limit with the page sizes its
// code asks for, and with room for the app to grow.
func TestWebAppOperationsFitTheComplexityLimit(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	es := graph.NewSchema(&graph.Resolver{})
	sizes := appPageSizes(t)
	for _, doc := range webAppDocuments(t) {
		parsed, perr := parser.ParseQuery(&ast.Source{Input: doc})
		if perr != nil {
			t.Fatal(perr)
		}
		for _, e := range validator.ValidateWithRules(es.Schema(), parsed, nil) { // also resolves each field's definition
			// The document carries every fragment of the app; an operation
			// uses some.
			if !strings.Contains(e.Message, "is never used") {
				t.Fatalf("%v\n%s", e, doc)
			}
		}
		for _, op := range parsed.Operations {
			first := defaultFirst
			if n, ok := sizes[op.Name]; ok {
				first = n
			}
			vars := map[string]any{"first": first}
			n := complexity.Calculate(context.Background(), es, op, vars)
			if n > cfg.MaxComplexity*3/4 {
				t.Errorf("%s: complexity %d at %d items a page, over three quarters of the default limit %d", opName(op), n, first, cfg.MaxComplexity)
			}
			if n == 0 {
				t.Errorf("%s: complexity 0: the walk did not see its fields", opName(op))
			}
		}
	}
}

func opName(op *ast.OperationDefinition) string {
	if op.Name == "" {
		return string(op.Operation)
	}
	return op.Name
}
