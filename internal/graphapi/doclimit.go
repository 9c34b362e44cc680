package graphapi

import (
	"context"
	"errors"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/hmdp/hmdp/internal/apperr"
)

// documentLimit bounds what a GraphQL document may cost before gqlgen
// validates it. Validation is where an anonymous client can spend the most
// CPU for the fewest bytes: gqlparser's overlapping-fields rule compares
// every pair of selections with one response name (quadratic), and fragment
// spreads multiply what it compares. Depth and complexity limits run only
// after validation, so they cannot help; this runs before it, on the raw
// text: its length (MaxBytes), its lexer tokens (MaxTokens, gqlparser stops
// lexing there), then a walk of the parsed document that counts every field
// as validation sees it, each fragment spread counted as the fields it
// brings (memoised, saturating, so nested spreads cannot blow up the count)
// across all operations and fragment definitions (validation checks them all,
// whichever operation is run). A document the query cache already holds was
// validated once and passes without another look.
type documentLimit struct {
	MaxBytes  int // length of the query text
	MaxTokens int // lexer tokens
	MaxWork   int // validation work: see validationWork
	// Known reports whether the query was validated before (gqlgen's query
	// cache); nil = never.
	Known func(ctx context.Context, query string) bool
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = documentLimit{}

// docLimitCode is the error code of a document over one of the limits.
const docLimitCode = string(apperr.DocumentTooLarge)

// ExtensionName names the extension for gqlgen.
func (documentLimit) ExtensionName() string { return "DocumentLimit" }

// Validate accepts any schema: the limits need nothing from it.
func (documentLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationParameters refuses a document over a limit before gqlgen
// parses and validates it.
func (d documentLimit) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if len(p.Query) > d.MaxBytes {
		return docTooLarge("query", d.MaxBytes, "bytes")
	}
	if p.Query == "" || (d.Known != nil && d.Known(ctx, p.Query)) {
		return nil
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: p.Query}, d.MaxTokens)
	if err != nil {
		var ge *gqlerror.Error
		if errors.As(err, &ge) && isTokenLimit(ge, d.MaxTokens) {
			return docTooLarge("query", d.MaxTokens, "tokens")
		}
		return nil // a syntax error: gqlgen reports it as it always has
	}
	if validationWork(doc, d.MaxWork) > d.MaxWork {
		return docTooLarge("query", d.MaxWork, "field comparisons to validate (fields sharing a response name, fragment spreads counted as the fields they bring)")
	}
	return nil
}

// isTokenLimit tells gqlparser's token-limit error from a syntax error (it
// has no code of its own, only this message).
func isTokenLimit(e *gqlerror.Error, limit int) bool {
	return e.Message == fmt.Sprintf("exceeded token limit of %d", limit)
}

func docTooLarge(field string, limit int, unit string) *gqlerror.Error {
	// Counting stops at the first one over, so the message says "more than".
	err := gqlerror.Errorf("%s: the document has more than %d %s, the most one may have", field, limit, unit)
	errcode.Set(err, docLimitCode)
	err.Extensions["field"] = field
	err.Extensions["limit"] = limit
	return err
}

// validationWork estimates, from above, the comparisons gqlparser's
// overlapping-fields rule makes in doc: in every selection set it visits,
// each pair of fields with one response name (fragment spreads and inline
// fragments flattened into the set, as the rule merges them), and for each
// such pair the same again between their sub-selections. It stops as soon as
// the count passes limit and then returns limit+1, so estimating costs at most
// about limit cheap steps; flattening counts against the same budget, so a
// fragment spread a million times over cannot make the estimate itself slow.
func validationWork(doc *ast.QueryDocument, limit int) int {
	w := workCounter{left: limit, frags: map[string]*ast.FragmentDefinition{}}
	for _, f := range doc.Fragments {
		if _, dup := w.frags[f.Name]; !dup {
			w.frags[f.Name] = f
		}
	}
	for _, op := range doc.Operations {
		w.visit(op.SelectionSet, map[string]bool{})
	}
	for _, f := range doc.Fragments {
		w.within(f.SelectionSet)
	}
	if w.left < 0 {
		return limit + 1
	}
	return limit - w.left
}

type workCounter struct {
	left  int // budget left; below 0 = over the limit
	frags map[string]*ast.FragmentDefinition
}

func (w *workCounter) spend(n int) bool {
	w.left -= n
	return w.left >= 0
}

// visit checks ss and every selection set under it, following each fragment
// once (the rule's walker does the same).
func (w *workCounter) visit(ss ast.SelectionSet, seen map[string]bool) {
	if w.left < 0 || len(ss) == 0 {
		return
	}
	w.within(ss)
	for _, sel := range ss {
		switch s := sel.(type) {
		case *ast.Field:
			w.visit(s.SelectionSet, seen)
		case *ast.InlineFragment:
			w.visit(s.SelectionSet, seen)
		case *ast.FragmentSpread:
			if f := w.frags[s.Name]; f != nil && !seen[s.Name] {
				seen[s.Name] = true
				w.visit(f.SelectionSet, seen)
			}
		}
	}
}

// within counts the pairs inside one selection set.
func (w *workCounter) within(ss ast.SelectionSet) {
	byName := w.flatten(ss)
	for _, fs := range byName {
		for i := range fs {
			for _, g := range fs[i+1:] {
				if !w.pair(fs[i], g) {
					return
				}
			}
		}
	}
}

// pair counts one comparison and those between the two sub-selections.
func (w *workCounter) pair(a, b *ast.Field) bool {
	if !w.spend(1) {
		return false
	}
	if len(a.SelectionSet) == 0 || len(b.SelectionSet) == 0 {
		return true
	}
	m1, m2 := w.flatten(a.SelectionSet), w.flatten(b.SelectionSet)
	for name, fs := range m1 {
		for _, f := range fs {
			for _, g := range m2[name] {
				if !w.pair(f, g) {
					return false
				}
			}
		}
	}
	return w.left >= 0
}

// flatten groups the fields of ss by response name, through inline fragments
// and fragment spreads (a cycle is not followed again: validation refuses it).
func (w *workCounter) flatten(ss ast.SelectionSet) map[string][]*ast.Field {
	out := map[string][]*ast.Field{}
	w.collect(ss, out, map[string]bool{})
	return out
}

func (w *workCounter) collect(ss ast.SelectionSet, out map[string][]*ast.Field, onPath map[string]bool) {
	for _, sel := range ss {
		if !w.spend(1) {
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			name := s.Alias
			if name == "" {
				name = s.Name
			}
			out[name] = append(out[name], s)
		case *ast.InlineFragment:
			w.collect(s.SelectionSet, out, onPath)
		case *ast.FragmentSpread:
			if f := w.frags[s.Name]; f != nil && !onPath[s.Name] {
				onPath[s.Name] = true
				w.collect(f.SelectionSet, out, onPath)
				delete(onPath, s.Name)
			}
		}
	}
}
