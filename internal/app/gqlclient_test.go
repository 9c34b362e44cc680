package app

import (
	"errors"
	"net/http"
	"testing"

	"github.com/Khan/genqlient/graphql"
	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// gql is a typed client (package gqlclient) of the server's handler in
// process, sending token as a bearer token when not empty.
func (ts *testServer) gql(token string) graphql.Client {
	c := ts.inProcess()
	if token != "" {
		next := c.Transport
		if next == nil {
			next = http.DefaultTransport
		}
		c = &http.Client{Transport: bearer{token: token, next: next}}
	}
	return graphql.NewClient(ts.URL+"/graphql", c)
}

// bearer adds "Authorization: Bearer <token>" to each request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// must(op(...))(t) is the data of a typed-client call, the test failing at
// once when the call failed.
func must[T any](data T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return data
	}
}

// gqlErrors are the GraphQL errors of a typed-client call: a gqlerror.List,
// or the one in a *graphql.HTTPError when the status was not 200 (gqlgen
// answers 422 to a request that fails validation).
func gqlErrors(err error) gqlerror.List {
	var list gqlerror.List
	if errors.As(err, &list) {
		return list
	}
	var he *graphql.HTTPError
	if errors.As(err, &he) {
		return he.Response.Errors
	}
	return nil
}

// errorKind is what the tests check of a GraphQL error: its extensions'
// code and (for BAD_USER_INPUT) field.
type errorKind struct {
	Code, Field string
}

// kindOf is the code and field of err's first GraphQL error.
func kindOf(err error) errorKind {
	list := gqlErrors(err)
	if len(list) == 0 {
		return errorKind{}
	}
	code, _ := list[0].Extensions["code"].(string)
	field, _ := list[0].Extensions["field"].(string)
	return errorKind{Code: code, Field: field}
}

// wantCode fails the test at once unless err is a GraphQL error whose
// extensions.code is code (whatever its field).
func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	if got := kindOf(err).Code; got != code {
		t.Fatalf("want a %s error, got %v", code, err)
	}
}

// wantField fails the test at once unless err is a BAD_USER_INPUT GraphQL
// error whose extensions.field names field (an argument, or an input field
// by its path: "input.images.0").
func wantField(t testing.TB, err error, field string) {
	t.Helper()
	if diff := cmp.Diff(errorKind{Code: "BAD_USER_INPUT", Field: field}, kindOf(err)); diff != "" {
		t.Fatalf("error %v (-want +got):\n%s", err, diff)
	}
}
