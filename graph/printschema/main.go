// Command printschema writes the whole GraphQL schema (every graph/*.graphqls,
// merged and sorted) to one file, schema.graphql at the repository root, so
// readers and front-end tools have the API in one place. It is the last step
// of `go generate ./...`; `make check-generate` fails when the file is stale.
//
//	go run ./printschema -o ../schema.graphql   (from graph/)
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
)

func main() {
	out := flag.String("o", "../schema.graphql", "file to write")
	glob := flag.String("schema", "*.graphqls", "schema files to merge")
	flag.Parse()
	if err := printSchema(*glob, *out); err != nil {
		fmt.Fprintln(os.Stderr, "printschema:", err)
		os.Exit(1)
	}
}

func printSchema(glob, out string) error {
	files, err := filepath.Glob(glob)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no schema files match %s", glob)
	}
	sort.Strings(files)
	sources := make([]*ast.Source, 0, len(files))
	for _, f := range files {
		b, err := os.ReadFile(f) //nolint:gosec // G304: a build tool reading the schema files it was pointed at
		if err != nil {
			return err
		}
		sources = append(sources, &ast.Source{Name: f, Input: string(b)})
	}
	schema, err := gqlparser.LoadSchema(sources...)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString("# The hmdp GraphQL API: every operation, type and directive.\n" +
		"# Generated from graph/*.graphqls by `make generate`; do not edit.\n\n")
	formatter.NewFormatter(&buf, formatter.WithIndent("  ")).FormatSchema(schema)
	return os.WriteFile(out, buf.Bytes(), 0o600)
}
