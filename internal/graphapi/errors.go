package graphapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
)

// presentError maps domain errors to extensions.code (docs/API.md), keeps gqlgen's own
// parse and validation errors, and turns everything else into a generic
// INTERNAL_SERVER_ERROR: Go error text (SQL, Redis, file paths) never reaches a client.
func presentError(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := graphql.DefaultErrorPresenter(ctx, err)
		if ae, ok := apperr.As(err); ok {
			gerr.Message = ae.Error()
			if gerr.Extensions == nil {
				gerr.Extensions = map[string]any{}
			}
			gerr.Extensions["code"] = string(ae.Code)
			field := ae.Field
			if field == "" && ae.Code == apperr.BadUserInput && len(gerr.Path) > 0 {
				field = fmt.Sprint(gerr.Path[len(gerr.Path)-1]) // an argument that failed to parse
			}
			if field != "" {
				gerr.Extensions["field"] = field
			}
			if ae.RetryAfterMs > 0 {
				gerr.Extensions["retryAfterMs"] = ae.RetryAfterMs
			}
			return gerr
		}
		// gqlgen's own errors (parse, validation, complexity, unreadable
		// request) wrap no Go error and describe the request, not the server.
		// One kind does not: an error gqlgen adds while executing, at a field's
		// path and without a code, is its null propagation ("must not be
		// null": a resolver returned nil for a non-null field), a server
		// fault reported as internal below.
		if ge, ok := errors.AsType[*gqlerror.Error](err); ok && ge.Err == nil && (len(ge.Path) == 0 || ge.Extensions["code"] != nil) {
			if gerr.Extensions["code"] == nil {
				if gerr.Extensions == nil {
					gerr.Extensions = map[string]any{}
				}
				gerr.Extensions["code"] = string(apperr.BadUserInput)
			}
			return gerr
		}
		log.ErrorContext(ctx, "internal error", "err", err, "path", gerr.Path.String())
		return &gqlerror.Error{
			Message:    "internal server error",
			Path:       gerr.Path,
			Locations:  gerr.Locations,
			Extensions: map[string]any{"code": string(apperr.Internal)},
		}
	}
}

// recoverPanic logs a resolver panic with its stack; the client sees an internal error.
func recoverPanic(log *slog.Logger) graphql.RecoverFunc {
	return func(ctx context.Context, p any) error {
		log.ErrorContext(ctx, "panic in resolver", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		return errors.New("panic")
	}
}
