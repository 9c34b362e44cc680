package graphapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
)

func TestPresentError(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	present := presentError(slog.New(slog.NewJSONHandler(&logs, nil)))
	ctx := context.Background()

	// A panic in a resolver is logged with its stack and shown as a bare internal error.
	perr := recoverPanic(slog.New(slog.NewJSONHandler(&logs, nil)))(ctx, "index out of range [3]")
	got := present(ctx, perr)
	if got.Message != "internal server error" || got.Extensions["code"] != "INTERNAL_SERVER_ERROR" {
		t.Fatalf("panic presented as %+v", got)
	}
	if !strings.Contains(logs.String(), "index out of range [3]") || !strings.Contains(logs.String(), "goroutine") {
		t.Fatalf("panic not logged with its stack: %s", logs.String())
	}

	// Driver errors never reach the client, however they are wrapped.
	got = present(ctx, fmt.Errorf("load shop: %w", errors.New("Error 1045: Access denied for user 'root'@'10.0.0.5'")))
	if got.Message != "internal server error" || strings.Contains(fmt.Sprint(got.Extensions), "1045") {
		t.Fatalf("driver error presented as %+v", got)
	}

	// A resolver that returned nil for a non-null field is the server's
	// fault: internal, without gqlgen's text, and logged.
	nn := gqlerror.ErrorPathf(ast.Path{ast.PathName("me"), ast.PathName("nickName")}, "must not be null")
	got = present(ctx, nn)
	if got.Extensions["code"] != "INTERNAL_SERVER_ERROR" || got.Message != "internal server error" || len(got.Path) != 2 {
		t.Fatalf("non-null violation presented as %+v", got)
	}
	// Errors about the request itself stay BAD_USER_INPUT (or keep gqlgen's code).
	got = present(ctx, gqlerror.Errorf("json request body could not be decoded"))
	if got.Extensions["code"] != "BAD_USER_INPUT" {
		t.Fatalf("request error presented as %+v", got)
	}
	ve := gqlerror.ErrorPathf(ast.Path{ast.PathName("variable"), ast.PathName("p")}, "must be defined")
	ve.Extensions = map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}
	if got = present(ctx, ve); got.Extensions["code"] != "GRAPHQL_VALIDATION_FAILED" || got.Message == "internal server error" {
		t.Fatalf("variable error presented as %+v", got)
	}

	// Domain errors keep their message, code and field, even wrapped.
	got = present(ctx, fmt.Errorf("update: %w", apperr.BadInput("input.name", "must not be empty")))
	if got.Extensions["code"] != "BAD_USER_INPUT" || got.Extensions["field"] != "input.name" || got.Message != "input.name: must not be empty" {
		t.Fatalf("domain error presented as %+v", got)
	}
}
