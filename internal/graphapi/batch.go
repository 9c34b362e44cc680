package graphapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
)

// singlePOST is gqlgen's POST transport, which takes one operation per
// request, with a clear refusal of a batch (a JSON array of operations):
// gqlgen's own answer to one is a decoding error that echoes the whole body.
type singlePOST struct{ transport.POST }

// Do refuses a body whose first non-blank byte opens a JSON array with HTTP
// 400 and BATCHING_NOT_SUPPORTED, and passes anything else to gqlgen.
func (t singlePOST) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	// The smallest buffer bufio allows: gqlgen reads the rest with
	// io.ReadAll, whose reads bypass an empty buffer. The default 4 KB, new
	// for every request, was 9% of the bytes a shop page's requests
	// allocated.
	br := bufio.NewReaderSize(r.Body, 16)
	if isJSONArray(br) {
		err := gqlerror.Errorf("batched requests (a JSON array of operations) are not supported: send one operation per request")
		errcode.Set(err, string(apperr.BatchingNotSupported))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(exec.DispatchError(r.Context(), gqlerror.List{err}))
		return
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{br, r.Body}
	t.POST.Do(w, r, exec)
}

// isJSONArray skips the body's leading blanks (JSON ignores them) and says
// whether the first other byte opens an array; that byte is left to read. A
// read error is left for gqlgen to report, as the body returns it again.
func isJSONArray(br *bufio.Reader) bool {
	for {
		b, err := br.ReadByte()
		if err != nil {
			return false
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		case '[':
			return true
		}
		_ = br.UnreadByte()
		return false
	}
}
