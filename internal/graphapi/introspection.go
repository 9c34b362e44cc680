package graphapi

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
)

// introspectionOff refuses, before execution, an operation that asks for
// __schema or __type while introspection is off (HMDP_INTROSPECTION=false,
// the production default). gqlgen would run the operation and fail those
// fields with a Go error, which the error presenter must treat as a server
// fault: an ERROR log line for every probe. Refused here it is the client's
// mistake, answered with INTROSPECTION_DISABLED and logged at no level.
type introspectionOff struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = introspectionOff{}

// ExtensionName names the extension for gqlgen.
func (introspectionOff) ExtensionName() string { return "IntrospectionOff" }

// Validate accepts any schema.
func (introspectionOff) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext refuses an operation that selects __schema or
// __type at its root (the only place they exist), through fragments too.
func (introspectionOff) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	op := oc.Doc.Operations.ForName(oc.OperationName)
	if op == nil || !asksIntrospection(op.SelectionSet, oc.Doc.Fragments, map[string]bool{}) {
		return nil
	}
	err := gqlerror.Errorf("introspection is disabled on this server")
	errcode.Set(err, string(apperr.IntrospectionDisabled))
	return err
}

func asksIntrospection(set ast.SelectionSet, frags ast.FragmentDefinitionList, seen map[string]bool) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if s.Name == "__schema" || s.Name == "__type" {
				return true
			}
		case *ast.InlineFragment:
			if asksIntrospection(s.SelectionSet, frags, seen) {
				return true
			}
		case *ast.FragmentSpread:
			if f := frags.ForName(s.Name); f != nil && !seen[s.Name] {
				seen[s.Name] = true
				if asksIntrospection(f.SelectionSet, frags, seen) {
					return true
				}
			}
		}
	}
	return false
}
