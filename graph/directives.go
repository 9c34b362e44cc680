package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
)

// Directives enforce the schema's access rules in one place: @login and @admin.
func Directives() DirectiveRoot {
	return DirectiveRoot{
		Login: func(ctx context.Context, _ any, next graphql.Resolver) (any, error) {
			if auth.ViewerFrom(ctx) == nil {
				return nil, apperr.New(apperr.Unauthenticated, "log in first")
			}
			return next(ctx)
		},
		Admin: func(ctx context.Context, _ any, next graphql.Resolver) (any, error) {
			v := auth.ViewerFrom(ctx)
			if v == nil {
				return nil, apperr.New(apperr.Unauthenticated, "log in first")
			}
			if !v.Admin {
				return nil, apperr.New(apperr.Forbidden, "admins only")
			}
			return next(ctx)
		},
	}
}

// NewSchema returns the executable schema for r.
func NewSchema(r *Resolver) graphql.ExecutableSchema {
	return NewExecutableSchema(Config{Resolvers: r, Directives: Directives(), Complexity: Complexity()})
}
