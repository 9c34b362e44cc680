package graphapi

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
)

// depthLimit refuses operations whose selections nest deeper than Max; gqlgen
// has no such limit built in, and depth is what makes a cyclic schema expensive.
// Introspection fields are not counted: GraphiQL's own schema query nests its
// type references deeper than any sensible data limit.
type depthLimit struct{ Max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

// ExtensionName names the extension for gqlgen.
func (depthLimit) ExtensionName() string { return "DepthLimit" }

// Validate accepts any schema: the limit needs nothing from it.
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext refuses the operation when it nests deeper than Max.
func (d depthLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	op := oc.Doc.Operations.ForName(oc.OperationName)
	if op == nil {
		return nil
	}
	if depth := selectionDepth(op.SelectionSet, oc.Doc.Fragments, map[string]bool{}); depth > d.Max {
		err := gqlerror.Errorf("operation nests %d levels deep, which exceeds the limit of %d", depth, d.Max)
		errcode.Set(err, string(apperr.GraphQLValidationFailed))
		return err
	}
	return nil
}

// selectionDepth is the depth of the deepest field under set. Fragment spreads
// and inline fragments add no depth; a fragment already on the current path is
// not followed again (validation rejects such cycles anyway).
func selectionDepth(set ast.SelectionSet, frags ast.FragmentDefinitionList, onPath map[string]bool) int {
	deepest := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				continue
			}
			d = 1 + selectionDepth(s.SelectionSet, frags, onPath)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, frags, onPath)
		case *ast.FragmentSpread:
			f := frags.ForName(s.Name)
			if f == nil || onPath[s.Name] {
				continue
			}
			onPath[s.Name] = true
			d = selectionDepth(f.SelectionSet, frags, onPath)
			delete(onPath, s.Name)
		}
		deepest = max(deepest, d)
	}
	return deepest
}
