package graph

import (
	goast "go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/hmdp/hmdp/internal/apperr"
)

// apperrDocs reads the doc comment of each Code constant in internal/apperr,
// without its leading "Name: ", by code.
func apperrDocs(t *testing.T) map[apperr.Code]string {
	t.Helper()
	files, err := filepath.Glob("../internal/apperr/*.go")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[apperr.Code]string{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			gd, ok := decl.(*goast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*goast.ValueSpec)
				if id, ok := vs.Type.(*goast.Ident); !ok || id.Name != "Code" || len(vs.Names) != 1 {
					continue
				}
				lit, ok := vs.Values[0].(*goast.BasicLit)
				if !ok {
					continue
				}
				v, _ := strconv.Unquote(lit.Value)
				name := vs.Names[0].Name
				doc, ok := strings.CutPrefix(vs.Doc.Text(), name+": ")
				if !ok {
					t.Errorf("%s: the doc of %s does not start %q", fset.Position(vs.Pos()), name, name+": ")
				}
				docs[apperr.Code(v)] = doc
			}
		}
	}
	return docs
}

// The schema's enum ErrorCode (graph/errors.graphqls), as the server serves
// it, lists exactly apperr's codes, in their order, each described by its
// constant's doc comment.
func TestErrorCodeEnum(t *testing.T) {
	def := NewExecutableSchema(Config{}).Schema().Types["ErrorCode"]
	if def == nil || def.Kind != ast.Enum {
		t.Fatal("the schema has no enum ErrorCode")
	}
	if strings.TrimSpace(def.Description) == "" {
		t.Error("enum ErrorCode has no description")
	}
	var inSchema []apperr.Code
	for _, v := range def.EnumValues {
		inSchema = append(inSchema, apperr.Code(v.Name))
	}
	codes := apperr.Codes()
	for _, c := range codes {
		if !slices.Contains(inSchema, c) {
			t.Errorf("apperr's code %s is not a value of enum ErrorCode (graph/errors.graphqls)", c)
		}
	}
	for _, c := range inSchema {
		if !slices.Contains(codes, c) {
			t.Errorf("enum ErrorCode's value %s is not one of apperr's codes (internal/apperr)", c)
		}
	}
	if !t.Failed() && !slices.Equal(inSchema, codes) {
		t.Errorf("enum ErrorCode's values are in another order than apperr.Codes():\n got %v\nwant %v", inSchema, codes)
	}
	docs := apperrDocs(t)
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, v := range def.EnumValues {
		want, ok := docs[apperr.Code(v.Name)]
		if ok && words(v.Description) != words(want) {
			t.Errorf("enum ErrorCode's %s is described as\n\t%s\nwant its constant's doc in internal/apperr:\n\t%s", v.Name, words(v.Description), words(want))
		}
	}
}
