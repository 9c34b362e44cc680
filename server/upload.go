package main

import (
	"mime"
	"net/http"

	"github.com/hmdp/hmdp/internal/image"
)

// maxUploadBody is the body limit of multipart (upload) requests: one image
// plus room for the operations and map parts.
const maxUploadBody = image.MaxBytes + 1<<20

// limitBodies limits JSON bodies to max and multipart bodies to maxMultipart.
// A multipart request must also carry a header a browser cannot send
// cross-site without a CORS preflight (CSRF protection, as gqlgen advises):
// a plain HTML form can post multipart/form-data but not custom headers.
func limitBodies(max, maxMultipart int64, next http.Handler) http.Handler {
	plain := limitBody(max, next)
	multipart := limitBody(maxMultipart, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "multipart/form-data" {
			plain.ServeHTTP(w, r)
			return
		}
		if r.Header.Get("GraphQL-Require-Preflight") == "" && r.Header.Get("Apollo-Require-Preflight") == "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"errors":[{"message":"multipart requests need a GraphQL-Require-Preflight header","extensions":{"code":"BAD_USER_INPUT"}}]}`))
			return
		}
		multipart.ServeHTTP(w, r)
	})
}
