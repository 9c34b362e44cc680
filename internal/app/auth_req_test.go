package app

import (
	"bytes"
	"net/http"
	"testing"
)

func bareAuthRequest(t *testing.T, ts *testServer, token string) *http.Request {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, ts.URL+"/graphql", bytes.NewReader([]byte(`{"query":"{ me { id } }"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("authorization", token)
	return req
}
