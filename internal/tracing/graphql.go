package tracing

import (
	"context"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// GraphQL is the gqlgen extension of t: a span per operation, named by its
// type and name (never its variables or document: they hold phone numbers,
// codes and passwords), and a span per resolver that does I/O. nil when off.
func (t *Tracing) GraphQL() graphql.HandlerExtension {
	if t == nil {
		return nil
	}
	return graphqlTracer{t: t}
}

type graphqlTracer struct{ t *Tracing }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
	graphql.FieldInterceptor
} = graphqlTracer{}

func (graphqlTracer) ExtensionName() string                   { return "Tracing" }
func (graphqlTracer) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation spans the operation until its response.
func (g graphqlTracer) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	typ, name := "query", oc.OperationName
	if op := oc.Operation; op != nil {
		typ = string(op.Operation)
		if op.Name != "" {
			name = op.Name // named in the document even if the request did not say
		}
	}
	spanName := typ
	if name != "" {
		spanName += " " + name
	}
	ctx, span := g.t.tracer.Start(ctx, spanName, trace.WithAttributes(
		attribute.String("graphql.operation.type", typ),
		attribute.String("graphql.operation.name", name),
	))
	handler := next(ctx)
	if typ == "subscription" {
		// Its responses are its events, as long as it lasts: the span
		// covers subscribing (each event's resolvers span on their own).
		span.End()
		return handler
	}
	var once sync.Once
	return func(ctx context.Context) *graphql.Response {
		resp := handler(ctx)
		once.Do(func() {
			if resp != nil && len(resp.Errors) > 0 {
				span.SetStatus(codes.Error, resp.Errors[0].Message)
			}
			span.End()
		})
		return resp
	}
}

// InterceptField spans the resolvers written in graph/ (IsResolver): they
// call the services, which do the I/O. Fields read off a struct or a model's
// method do none and get no span, and neither does a resolver under a list
// element: a page of 50 posts would make 50 spans each of its author and
// like state, all waiting on the same dataloader batch, whose statements and
// Redis calls show under the first of them anyway.
func (g graphqlTracer) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !fc.IsResolver || underList(fc) {
		return next(ctx)
	}
	ctx, span := g.t.tracer.Start(ctx, fc.Object+"."+fc.Field.Name, trace.WithAttributes(
		attribute.String("graphql.field.path", fc.Path().String()),
	))
	defer span.End()
	res, err := next(ctx)
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	return res, err
}

// underList reports whether fc resolves inside an element of a list.
func underList(fc *graphql.FieldContext) bool {
	for p := fc.Parent; p != nil; p = p.Parent {
		if p.Index != nil {
			return true
		}
	}
	return false
}
