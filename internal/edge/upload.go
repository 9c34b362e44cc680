package edge

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/image"
)

// MaxUploadBody is the body limit of multipart (upload) requests: one image
// plus room for the operations and map parts.
const MaxUploadBody = image.MaxBytes + 1<<20

// LimitBodies limits JSON bodies to max and multipart bodies to maxMultipart.
// A multipart request must also carry a header a browser cannot send
// cross-site without a CORS preflight (CSRF protection, as gqlgen advises):
// a plain HTML form can post multipart/form-data but not custom headers.
func LimitBodies(max, maxMultipart int64, next http.Handler) http.Handler {
	plain := limitBody(max, next)
	multipart := limitBody(maxMultipart, limitMultipartParts(max, next))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if mt != "multipart/form-data" {
			plain.ServeHTTP(w, r)
			return
		}
		if r.Header.Get("GraphQL-Require-Preflight") == "" && r.Header.Get("Apollo-Require-Preflight") == "" {
			writeRefusal(w, http.StatusBadRequest, apperr.BadUserInput, "", "multipart requests need a GraphQL-Require-Preflight header")
			return
		}
		multipart.ServeHTTP(w, r)
	})
}

// limitMultipartParts holds the operations and map parts of an upload to the
// JSON body limit (max): only the file part may be large. gqlgen would
// otherwise decode an operations part as large as the upload limit (6 MB of
// variables or query text). The parts are read here through a copy, and the
// body reaches gqlgen unchanged: what was read, then the rest.
func limitMultipartParts(max int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if params["boundary"] == "" {
			next.ServeHTTP(w, r) // gqlgen explains what is wrong with it
			return
		}
		var seen bytes.Buffer
		parts := multipart.NewReader(io.TeeReader(r.Body, &seen), params["boundary"])
		for _, name := range []string{"operations", "map"} { // gqlgen refuses any other order
			p, err := parts.NextPart()
			if err != nil {
				break
			}
			n, err := io.Copy(io.Discard, io.LimitReader(p, max+1))
			if n > max {
				writeRefusal(w, http.StatusRequestEntityTooLarge, apperr.BadUserInput, name, fmt.Sprintf("the %s part is larger than %d bytes", name, max))
				return
			}
			if err != nil {
				break
			}
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(&seen, r.Body), r.Body}
		next.ServeHTTP(w, r)
	})
}
