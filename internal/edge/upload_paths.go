package edge

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
)

// gqlgen places each uploaded file into the operations' variables at the
// paths of the "map" part with unchecked type assertions and indexes
// (graphql.RawParams.AddUpload): a path through a null, a string, a missing
// or out-of-range index, or into variables that are null, panics. gqlgen
// recovers, but the client gets a 500 and the log a stack, for a request
// anyone can send (found by FuzzGraphQLMultipart: operations "null", map
// {"0":["variables."]}). checkUploadPaths reads the operations and map
// parts first and refuses such a map; the body is then replayed unchanged.

// maxUploadPaths bounds the paths one map may name.
const maxUploadPaths = 100

// errUploadPaths is the refusal of a map gqlgen cannot apply.
var errUploadPaths = errors.New(`map: every path must name a place in operations' variables that can take a file: "variables.<name>" of an object, or a listed index of an array`)

// checkUploadPaths returns errUploadPaths for a multipart request whose map
// names a path gqlgen could not follow. Anything else it cannot read is left
// for gqlgen to refuse. r.Body reads the whole body again afterwards.
func checkUploadPaths(r *http.Request) error {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || r.Method != http.MethodPost || params["boundary"] == "" {
		return nil
	}
	body := r.Body
	var seen bytes.Buffer
	mr := multipart.NewReader(io.TeeReader(body, &seen), params["boundary"])
	defer func() {
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(seen.Bytes()), body), body}
	}()
	ops, err := readFormPart(mr, "operations")
	if err != nil {
		return nil //nolint:nilerr // gqlgen refuses it, with its own message
	}
	fileMap, err := readFormPart(mr, "map")
	if err != nil {
		return nil //nolint:nilerr // as above
	}
	var operations struct {
		Variables map[string]any `json:"variables"`
	}
	var paths map[string][]string
	// Decode the first JSON value of each part and ignore what follows, as
	// gqlgen does: json.Unmarshal would refuse trailing bytes that gqlgen
	// then accepts unchecked.
	opsDecoder := json.NewDecoder(bytes.NewReader(ops))
	opsDecoder.UseNumber()
	if opsDecoder.Decode(&operations) != nil || json.NewDecoder(bytes.NewReader(fileMap)).Decode(&paths) != nil {
		return nil // as above
	}
	var all []string
	for _, list := range paths {
		all = append(all, list...)
	}
	if len(all) > maxUploadPaths {
		return errUploadPaths
	}
	for i, p := range all {
		if !uploadSlot(operations.Variables, p) {
			return errUploadPaths
		}
		// A file placed at one path must not be walked through by another.
		for _, q := range all[i+1:] {
			if strings.HasPrefix(q, p+".") || strings.HasPrefix(p, q+".") {
				return errUploadPaths
			}
		}
	}
	return nil
}

// readFormPart reads the next part, which must be the form field name.
func readFormPart(mr *multipart.Reader, name string) ([]byte, error) {
	part, err := mr.NextPart()
	if err != nil {
		return nil, err
	}
	if part.FormName() != name {
		return nil, errors.New("unexpected part")
	}
	return io.ReadAll(part)
}

// uploadSlot reports whether AddUpload can follow path in vars: each step a
// key of a non-nil object or an index within an array, the last one naming
// the place to put the file.
func uploadSlot(vars map[string]any, path string) bool {
	rest, ok := strings.CutPrefix(path, "variables.")
	if !ok {
		return true // AddUpload refuses it without panicking
	}
	var at any = vars
	parts := strings.Split(rest, ".")
	for i, p := range parts {
		last := i == len(parts)-1
		if index, err := strconv.Atoi(p); err == nil {
			list, ok := at.([]any)
			if !ok || index < 0 || index >= len(list) {
				return false
			}
			if !last {
				at = list[index]
			}
			continue
		}
		obj, ok := at.(map[string]any)
		if !ok || obj == nil {
			return false
		}
		if !last {
			at = obj[p]
		}
	}
	return true
}
