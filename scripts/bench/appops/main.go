// Command appops prints the request body the web app sends for one of its
// GraphQL operations, read from the app's generated client
// (web/app/src/gql/gql.ts), so make bench-http loads what the app sends
// rather than a copy that drifts from it:
//
//	appops -op Shop -vars '{"id":"1"}' > shop.json
//
// `first`, when the operation takes it and -vars leaves it out, is the page
// size the app's code passes.
// The body has the shape urql posts: operationName, query (the operation with
// the fragments it spreads) and variables.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/hmdp/hmdp/internal/testenv"
)

func main() {
	root := flag.String("root", ".", "the repository's root")
	op := flag.String("op", "", "the web app's operation name (Shop, Home, HotBlogs, Seckill, ...)")
	vars := flag.String("vars", "{}", "the variables, as JSON")
	flag.Parse()
	if err := run(os.Stdout, *root, *op, *vars); err != nil {
		fmt.Fprintln(os.Stderr, "appops:", err)
		os.Exit(1)
	}
}

func run(out *os.File, root, op, vars string) error {
	doc, err := testenv.WebAppOperation(root, op)
	if err != nil {
		return err
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(vars), &v); err != nil {
		return fmt.Errorf("-vars: %w", err)
	}
	// A page's size is the one the app's code asks for, unless -vars says.
	sizes, err := testenv.WebAppPageSizes(root)
	if err != nil {
		return err
	}
	if n, ok := sizes[op]; ok && v["first"] == nil {
		v["first"] = n
	}
	return json.NewEncoder(out).Encode(struct {
		OperationName string         `json:"operationName"`
		Query         string         `json:"query"`
		Variables     map[string]any `json:"variables"`
	}{op, doc, v})
}
