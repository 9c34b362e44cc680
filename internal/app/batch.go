package app

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// codeBatching is the code of a refused batched request (docs/API.md).
const codeBatching = "BATCHING_NOT_SUPPORTED"

// singlePOST is gqlgen's POST transport, which takes one operation per
// request, with a clear refusal of a batch (a JSON array of operations):
// gqlgen's own answer to one is a decoding error that echoes the whole body.
type singlePOST struct{ transport.POST }

// Do refuses a body whose first non-blank byte opens a JSON array with HTTP
// 400 and codeBatching, and passes anything else to gqlgen.
func (t singlePOST) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	br := bufio.NewReader(r.Body)
	if isJSONArray(br) {
		err := gqlerror.Errorf("batched requests (a JSON array of operations) are not supported: send one operation per request")
		errcode.Set(err, codeBatching)
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

// isJSONArray peeks at the body's first non-blank byte; a read error is left
// for gqlgen to report, as the reader returns it again.
func isJSONArray(br *bufio.Reader) bool {
	for i := 1; i <= br.Size(); i++ {
		b, err := br.Peek(i)
		if len(b) < i || err != nil {
			return false
		}
		switch b[i-1] {
		case ' ', '\t', '\r', '\n':
			continue
		case '[':
			return true
		}
		return false
	}
	return false
}
