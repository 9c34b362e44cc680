package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

// gqlError is one entry of a GraphQL response's errors.
type gqlError struct {
	Message    string `json:"message,omitempty"`
	Extensions struct {
		Code string `json:"code,omitempty"`
	} `json:"extensions"`
}

// gqlResult is a GraphQL answer: its data, its errors (a transport failure
// or a non-200 status is one error coded HTTP_<status>, HTTP_0 when no
// response came; an unreadable body BAD_RESPONSE) and the request's duration.
type gqlResult struct {
	Data   json.RawMessage
	Errors []gqlError
	Took   time.Duration
}

// code is the first error's code, "" without errors.
func (r gqlResult) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	return r.Errors[0].Extensions.Code
}

func errorCoded(code string) []gqlError {
	e := gqlError{}
	e.Extensions.Code = code
	return []gqlError{e}
}

// timedDo sends req and reads the whole answer into w (io.Discard to drop
// it). The duration runs from the moment a connection is in hand to the last
// byte of the body, as k6's http_req_duration (sending + waiting + receiving):
// dialling a new connection is not part of it.
func timedDo(c *http.Client, req *http.Request, w io.Writer) (status int, took time.Duration, err error) {
	var got atomic.Int64
	start := time.Now()
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { got.Store(time.Now().UnixNano()) }}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	res, err := c.Do(req)
	if err != nil {
		return 0, sinceConn(start, &got), err
	}
	_, err = io.Copy(w, res.Body)
	_ = res.Body.Close()
	return res.StatusCode, sinceConn(start, &got), err
}

// sinceConn is the time since the connection was in hand, or since start when
// none came.
func sinceConn(start time.Time, got *atomic.Int64) time.Duration {
	now := time.Now()
	if g := got.Load(); g != 0 {
		return now.Sub(time.Unix(0, g))
	}
	return now.Sub(start)
}

// gqlClient posts GraphQL operations to one endpoint.
type gqlClient struct {
	http *http.Client
	url  string // …/graphql
}

// do posts one operation, with the token as a bearer when there is one.
func (g *gqlClient) do(ctx context.Context, query string, vars map[string]any, token string) gqlResult {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return gqlResult{Errors: errorCoded("BAD_REQUEST")}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.url, bytes.NewReader(body))
	if err != nil {
		return gqlResult{Errors: errorCoded("BAD_REQUEST")}
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	var buf bytes.Buffer
	status, took, err := timedDo(g.http, req, &buf)
	r := gqlResult{Took: took}
	switch {
	case err != nil && status == 0:
		r.Errors = errorCoded("HTTP_0")
	case status != http.StatusOK:
		r.Errors = errorCoded(fmt.Sprintf("HTTP_%d", status))
	case err != nil:
		r.Errors = errorCoded("BAD_RESPONSE")
	default:
		var b struct {
			Data   json.RawMessage `json:"data"`
			Errors []gqlError      `json:"errors"`
		}
		if json.Unmarshal(buf.Bytes(), &b) != nil {
			r.Errors = errorCoded("BAD_RESPONSE")
		} else {
			r.Data, r.Errors = b.Data, b.Errors
		}
	}
	return r
}

// into decodes the data of a result without errors into v.
func (r gqlResult) into(what string, v any) error {
	if len(r.Errors) > 0 {
		e, _ := json.Marshal(r.Errors)
		return fmt.Errorf("%s: %s", what, e)
	}
	if err := json.Unmarshal(r.Data, v); err != nil {
		return fmt.Errorf("%s: %w (data %s)", what, err, r.Data)
	}
	return nil
}
