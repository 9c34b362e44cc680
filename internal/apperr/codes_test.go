package apperr_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/extension"

	"github.com/hmdp/hmdp/internal/apperr"
)

// moduleRoot is the repository root, relative to this package's directory
// (where go test runs).
const moduleRoot = "../.."

// declaredCodes reads the constants of type Code declared in this package's
// non-test files, in the order they are declared.
func declaredCodes(t *testing.T) (names []string, values []apperr.Code) {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
					continue
				}
				for i, name := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Fatalf("%s: %s is not a string literal", fset.Position(vs.Pos()), name.Name)
					}
					v, _ := strconv.Unquote(lit.Value)
					names = append(names, name.Name)
					values = append(values, apperr.Code(v))
				}
			}
		}
	}
	return names, values
}

// Codes lists every Code constant once, in the order they are declared, so
// the schema's enum (checked against Codes) cannot miss one.
func TestCodesListsEveryConstant(t *testing.T) {
	names, values := declaredCodes(t)
	if len(values) == 0 {
		t.Fatal("found no constants of type Code: update this test's reader")
	}
	if got := apperr.Codes(); !slices.Equal(got, values) {
		t.Errorf("Codes() = %v\nwant the constants of type Code, in order: %v", got, values)
	}
	seen := map[apperr.Code]string{}
	for i, v := range values {
		if other, ok := seen[v]; ok {
			t.Errorf("%s and %s are both %q", other, names[i], v)
		}
		seen[v] = names[i]
		if v == "" || strings.Trim(string(v), "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
			t.Errorf("%s = %q: a code is upper case letters and underscores (a GraphQL enum value)", names[i], v)
		}
	}
}

// The codes gqlgen sets itself are the ones listed here.
func TestGQLGenCodes(t *testing.T) {
	if apperr.GraphQLParseFailed != errcode.ParseFailed {
		t.Errorf("GraphQLParseFailed = %q, gqlgen's errcode.ParseFailed = %q", apperr.GraphQLParseFailed, errcode.ParseFailed)
	}
	if apperr.GraphQLValidationFailed != errcode.ValidationFailed {
		t.Errorf("GraphQLValidationFailed = %q, gqlgen's errcode.ValidationFailed = %q", apperr.GraphQLValidationFailed, errcode.ValidationFailed)
	}
	apq := extension.AutomaticPersistedQuery{Cache: graphql.NoCache[string]{}}
	err := apq.MutateOperationParameters(context.Background(), &graphql.RawParams{Extensions: map[string]any{
		"persistedQuery": map[string]any{"version": 1, "sha256Hash": strings.Repeat("0", 64)},
	}})
	if err == nil || err.Extensions["code"] != string(apperr.PersistedQueryNotFound) {
		t.Errorf("gqlgen's APQ answers an unknown hash with %v, want extensions.code %s", err, apperr.PersistedQueryNotFound)
	}
}

// No Go file of the module outside this package spells out a code: each one
// uses the constant. A string literal that is a code, or holds one in double
// quotes (a JSON body written by hand), is reported with its file and line;
// prose that names a code (a flag's help) is not. Tests are exempt: they check
// what clients receive.
func TestNoBareCodes(t *testing.T) {
	names, values := declaredCodes(t)
	constName := map[apperr.Code]string{}
	for i, v := range values {
		constName[v] = names[i]
	}
	self, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	scanned := 0
	err = filepath.WalkDir(moduleRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == moduleRoot {
				return nil
			}
			name := d.Name()
			if strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" {
				return filepath.SkipDir
			}
			if abs, _ := filepath.Abs(p); abs == self {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		scanned++
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			v, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, c := range apperr.Codes() {
				if v == string(c) || strings.Contains(v, `"`+string(c)+`"`) {
					rel, _ := filepath.Rel(moduleRoot, p)
					t.Errorf("%s:%d: the code %s spelled out: use apperr.%s", filepath.ToSlash(rel), fset.Position(lit.Pos()).Line, c, constName[c])
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 50 {
		t.Fatalf("scanned only %d Go files under %s: is the module root right?", scanned, moduleRoot)
	}
}
