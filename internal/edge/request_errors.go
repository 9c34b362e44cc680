package edge

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/hmdp/hmdp/internal/apperr"
)

// TidyRequestErrors rewrites the answers gqlgen's transports write
// themselves, bypassing the error presenter, to a request they cannot read
// (wrong method or content type, a body that is not JSON, unreadable
// variables or multipart form): some have no Content-Type and no
// extensions.code, some Go's own text (the JSON decoder's, naming Go types)
// followed by the whole request body echoed back. Each error gets a code
// (BAD_USER_INPUT), Go text is replaced by a sentence about the request,
// "transport not supported" becomes 405 (method) or 415 (content type), and
// the answer is always JSON. Successful answers pass through untouched. An
// upload map gqlgen would panic on is refused first (upload_paths.go).
func TidyRequestErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := checkUploadPaths(r); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			out, _ := json.Marshal(map[string]any{"errors": []heldError{{Message: err.Error(), Extensions: map[string]any{"code": string(apperr.BadUserInput)}}}, "data": nil})
			_, _ = w.Write(out)
			return
		}
		tw := &tidyWriter{ResponseWriter: w}
		next.ServeHTTP(tw, r)
		tw.finish(r)
	})
}

// maxErrorBody bounds what tidyWriter keeps of an error answer (gqlgen's
// JSON decoding errors echo the request body, up to HMDP_MAX_BODY_BYTES).
const maxErrorBody = 64 << 10

// tidyWriter holds back answers with a status of 400 or more.
type tidyWriter struct {
	http.ResponseWriter
	status    int // 0 until WriteHeader
	holding   bool
	held      bytes.Buffer
	truncated bool
}

func (tw *tidyWriter) WriteHeader(status int) {
	if tw.status != 0 {
		return
	}
	tw.status = status
	if status >= 400 {
		tw.holding = true
		return
	}
	tw.ResponseWriter.WriteHeader(status)
}

func (tw *tidyWriter) Write(b []byte) (int, error) {
	if tw.status == 0 {
		tw.WriteHeader(http.StatusOK)
	}
	if !tw.holding {
		return tw.ResponseWriter.Write(b)
	}
	if room := maxErrorBody - tw.held.Len(); len(b) > room {
		tw.held.Write(b[:max(room, 0)])
		tw.truncated = true
	} else {
		tw.held.Write(b)
	}
	return len(b), nil
}

// Unwrap lets http.ResponseController reach the connection.
func (tw *tidyWriter) Unwrap() http.ResponseWriter { return tw.ResponseWriter }

type heldError struct {
	Message    string         `json:"message"`
	Locations  any            `json:"locations,omitempty"`
	Path       any            `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

// finish writes a held answer, tidied.
func (tw *tidyWriter) finish(r *http.Request) {
	if !tw.holding {
		return
	}
	status := tw.status
	var body struct {
		Errors []heldError `json:"errors"`
		Data   any         `json:"data"`
	}
	if tw.truncated || json.Unmarshal(tw.held.Bytes(), &body) != nil || len(body.Errors) == 0 {
		body.Errors = []heldError{{Message: strings.ToLower(http.StatusText(status))}}
		body.Data = nil
	}
	for i := range body.Errors {
		e := &body.Errors[i]
		msg := e.Message
		switch {
		case msg == "transport not supported":
			status, e.Message = unsupported(r)
		case strings.HasPrefix(msg, "json request body could not be decoded"):
			e.Message = "the request body is not a GraphQL request: send a JSON object with a \"query\" string (and optional \"variables\" object and \"operationName\" string)"
		case strings.HasPrefix(msg, "could not get json request body"):
			if strings.Contains(msg, "request body too large") {
				status, e.Message = http.StatusRequestEntityTooLarge, "request body too large (over HMDP_MAX_BODY_BYTES)"
			} else {
				e.Message = "the request body could not be read"
			}
		}
		if e.Extensions == nil {
			e.Extensions = map[string]any{}
		}
		if e.Extensions["code"] == nil {
			code := apperr.BadUserInput
			if status >= 500 {
				code = apperr.Internal
			}
			e.Extensions["code"] = string(code)
		}
	}
	out, err := json.Marshal(body)
	if err != nil { // cannot happen: the values came from JSON
		out = refusal(apperr.BadUserInput, "", "bad request")
	}
	h := tw.Header()
	if ct := h.Get("Content-Type"); !strings.Contains(ct, "json") {
		h.Set("Content-Type", "application/json")
	}
	h.Del("Content-Length")
	if status == http.StatusMethodNotAllowed {
		h.Set("Allow", "GET, POST, OPTIONS")
	}
	tw.ResponseWriter.WriteHeader(status)
	_, _ = tw.ResponseWriter.Write(out)
}

// unsupported says why no transport took r.
func unsupported(r *http.Request) (int, string) {
	switch {
	case r.Method != http.MethodGet && r.Method != http.MethodPost:
		return http.StatusMethodNotAllowed, "method not allowed: send GraphQL requests with POST (or GET for queries)"
	case r.Header.Get("Upgrade") != "":
		return http.StatusBadRequest, "only websocket upgrades are served here"
	}
	return http.StatusUnsupportedMediaType, "unsupported Content-Type: send application/json (multipart/form-data for uploads)"
}

// refusal is the JSON answer to a request refused before GraphQL runs (no
// data): one error with extensions.code, and extensions.field when field is
// set.
func refusal(code apperr.Code, field, message string) []byte {
	ext := map[string]any{"code": string(code)}
	if field != "" {
		ext["field"] = field
	}
	out, _ := json.Marshal(map[string][]heldError{"errors": {{Message: message, Extensions: ext}}})
	return out
}

// writeRefusal answers with status and refusal's body.
func writeRefusal(w http.ResponseWriter, status int, code apperr.Code, field, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(refusal(code, field, message))
}
