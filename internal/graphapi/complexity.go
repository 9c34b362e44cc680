package graphapi

import (
	"context"

	"github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
)

// complexityLimit refuses operations whose complexity (gqlgen's own
// calculation) exceeds Max, with gqlgen's message and error code. Unlike
// gqlgen's extension it records no per-operation statistics: nothing here
// reads them, and each open subscription would hold them (a map, 0.3 KB) for
// as long as it lives.
type complexityLimit struct {
	Max    int
	schema graphql.ExecutableSchema
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = &complexityLimit{}

// ExtensionName names the extension for gqlgen.
func (*complexityLimit) ExtensionName() string { return "ComplexityLimit" }

// Validate keeps the schema, which the complexity calculation needs.
func (c *complexityLimit) Validate(schema graphql.ExecutableSchema) error {
	c.schema = schema
	return nil
}

// MutateOperationContext refuses the operation when its complexity exceeds Max.
func (c *complexityLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	op := oc.Doc.Operations.ForName(oc.OperationName)
	if n := complexity.Calculate(ctx, c.schema, op, oc.Variables); n > c.Max {
		err := gqlerror.Errorf("operation has complexity %d, which exceeds the limit of %d", n, c.Max)
		errcode.Set(err, string(apperr.ComplexityLimitExceeded))
		return err
	}
	return nil
}
