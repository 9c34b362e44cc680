package app

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hostileTables are the tables a hostile request could write to.
var hostileTables = []string{"tb_blog", "tb_blog_comments", "tb_follow", "tb_shop", "tb_shop_type", "tb_user", "tb_user_info", "tb_voucher", "tb_voucher_order", "tb_sign"}

func (ts *testServer) rowCounts() map[string]int {
	ts.t.Helper()
	out := map[string]int{}
	for _, tbl := range hostileTables {
		var n int
		if err := ts.app.db.SQL.QueryRowContext(ts.t.Context(), "SELECT COUNT(*) FROM "+tbl).Scan(&n); err != nil {
			ts.t.Fatal(err)
		}
		out[tbl] = n
	}
	return out
}

// raw sends a request built by hand to the handler in process.
func (ts *testServer) raw(method, contentType, query string, body []byte, token string) gqlResponse {
	ts.t.Helper()
	req, _ := http.NewRequestWithContext(ts.t.Context(), method, ts.URL+"/graphql"+query, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("GraphQL-Require-Preflight", "1")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return ts.sendWith(ts.inProcess(), req)
}

func (ts *testServer) readyz() int {
	ts.t.Helper()
	req, _ := http.NewRequestWithContext(ts.t.Context(), http.MethodGet, ts.URL+"/readyz", http.NoBody)
	res, err := ts.inProcess().Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	_ = res.Body.Close()
	return res.StatusCode
}

// multipartRequest is an upload request (an 8-byte PNG header as file 0).
func multipartRequest(token, operations, fileMap string) struct {
	method, contentType, query string
	body                       []byte
	token                      string
} {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("operations", operations)
	_ = mw.WriteField("map", fileMap)
	fw, _ := mw.CreateFormFile("0", "a.png")
	_, _ = fw.Write([]byte("\x89PNG\r\n\x1a\n"))
	_ = mw.Close()
	return struct {
		method, contentType, query string
		body                       []byte
		token                      string
	}{http.MethodPost, mw.FormDataContentType(), "", body.Bytes(), token}
}

func gqlBody(query string, vars map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	return b
}

// Hostile input through GraphQL: each request gets a clear error code (and,
// for input errors, the field), writes nothing, and leaves the server ready.
// Go's own error text never reaches the client.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ts := startServer(t, backend)
		user := ts.login("13500000051")
		long := strings.Repeat("长", 10_000)
		// A cursor of nested msgpack map headers (page.Decode).
		const hostileCursor = "gqFpAaF23//////f/////9//////3//////f/////9//////"
		const shopQ = `query($id: ID!) { shop(id: $id) { name } }`
		const hot = `query($a: String) { hotBlogs(first: 2, after: $a) { edges { node { id } } } }`
		const update = `mutation($in: UpdateProfileInput!) { updateProfile(input: $in) { id } }`
		const blog = `mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }`
		const search = `query($n: String!) { searchShops(name: $n) { edges { node { name } } } }`

		type request = struct {
			method, contentType, query string
			body                       []byte
			token                      string
		}
		post := func(token, q string, vars map[string]any) request {
			return request{http.MethodPost, "application/json", "", gqlBody(q, vars), token}
		}
		for _, c := range []struct {
			name      string
			req       request
			status    int // 0: any status below 500
			code      string
			field     string
			noMessage []string // text that must not be in the message
		}{
			{name: "malformed JSON", req: request{http.MethodPost, "application/json", "", []byte(`{"query": "{ me { id } }"`), ""}, status: 400, code: "BAD_USER_INPUT", noMessage: []string{"Go value", "unexpected EOF", "body:"}},
			{name: "JSON array body", req: request{http.MethodPost, "application/json", "", []byte(`[1, 2]`), ""}, status: 400, code: "BATCHING_NOT_SUPPORTED", noMessage: []string{"Go value", "graphql.RawParams"}},
			{name: "JSON string body", req: request{http.MethodPost, "application/json", "", []byte(`"{ me { id } }"`), ""}, status: 400, code: "BAD_USER_INPUT", noMessage: []string{"Go value"}},
			{name: "not JSON at all", req: request{http.MethodPost, "application/json", "", []byte("\x00\xff\xfe"), ""}, status: 400, code: "BAD_USER_INPUT", noMessage: []string{"invalid character"}},
			{name: "oversized body", req: request{http.MethodPost, "application/json", "", gqlBody(`mutation($in: CreateBlogInput!) { createBlog(input: $in) { id } }`, map[string]any{"in": map[string]any{"title": "t", "content": strings.Repeat("x", 2<<20)}}), user}, status: 413, code: "BAD_USER_INPUT"},
			{name: "text/plain", req: request{http.MethodPost, "text/plain", "", gqlBody(`{ me { id } }`, nil), ""}, status: 415, code: "BAD_USER_INPUT"},
			{name: "form encoded", req: request{http.MethodPost, "application/x-www-form-urlencoded", "", []byte("query=%7B%20me%20%7B%20id%20%7D%20%7D"), ""}, status: 415, code: "BAD_USER_INPUT"},
			{name: "no content type", req: request{http.MethodPost, "", "", gqlBody(`{ me { id } }`, nil), ""}, status: 415, code: "BAD_USER_INPUT"},
			{name: "PUT", req: request{http.MethodPut, "application/json", "", gqlBody(`{ me { id } }`, nil), ""}, status: 405, code: "BAD_USER_INPUT"},
			{name: "upload map into null operations", req: multipartRequest(user, `null`, `{"0":["variables."]}`), status: 422, code: "BAD_USER_INPUT"},
			{name: "upload map through a null", req: multipartRequest(user, `{"query":"mutation($f: Upload!) { uploadImage(file: $f) }","variables":{"f":null}}`, `{"0":["variables.f.x"]}`), status: 422, code: "BAD_USER_INPUT"},
			{name: "upload map index out of range", req: multipartRequest(user, `{"query":"mutation($f: [Upload!]!) { a: uploadImage(file: $f) }","variables":{"f":[null]}}`, `{"0":["variables.f.-1"]}`), status: 422, code: "BAD_USER_INPUT"},
			{name: "upload map through a string", req: multipartRequest(user, `{"query":"{ me { id } }","variables":{"f":"s"}}`, `{"0":["variables.f.0"]}`), status: 422, code: "BAD_USER_INPUT"},
			{name: "malformed multipart", req: request{http.MethodPost, "multipart/form-data; boundary=x", "", []byte("--x\r\nnonsense"), user}, code: "BAD_USER_INPUT"},
			{name: "GET with broken variables", req: request{http.MethodGet, "", "?query=%7Bme%7Bid%7D%7D&variables=%7B", nil, ""}, status: 400, code: "BAD_USER_INPUT"},
			{name: "mutation over GET", req: request{http.MethodGet, "", "?query=mutation%7Blogout%7D", nil, user}, status: 406, code: "BAD_USER_INPUT"},
			{name: "unknown field", req: post("", `{ shopTypes { name secret } }`, nil), status: 422, code: "GRAPHQL_VALIDATION_FAILED"},
			{name: "unknown argument", req: post("", `{ shop(id: "1", admin: true) { name } }`, nil), status: 422, code: "GRAPHQL_VALIDATION_FAILED"},
			{name: "unknown input field", req: post(user, update, map[string]any{"in": map[string]any{"nickName": "x", "isAdmin": true}}), status: 422, code: "GRAPHQL_VALIDATION_FAILED"},
			{name: "huge id", req: post("", shopQ, map[string]any{"id": "99999999999999999999999"}), code: "BAD_USER_INPUT", field: "id"},
			{name: "non-numeric id", req: post("", shopQ, map[string]any{"id": "1 OR 1=1"}), code: "BAD_USER_INPUT", field: "id"},
			{name: "float id", req: post("", shopQ, map[string]any{"id": "1.5"}), code: "BAD_USER_INPUT", field: "id"},
			{name: "negative id deleted", req: post(user, `mutation { deleteBlog(id: "-1") }`, nil), code: "NOT_FOUND"},
			{name: "huge id liked", req: post(user, `mutation { setBlogLike(blogId: "9223372036854775807", liked: true) { id } }`, nil), code: "NOT_FOUND"},
			{name: "invalid cursor", req: post("", hot, map[string]any{"a": "not a cursor"}), code: "BAD_USER_INPUT", field: "after"},
			{name: "hostile cursor", req: post("", hot, map[string]any{"a": hostileCursor}), code: "BAD_USER_INPUT", field: "after"},
			{name: "hostile shop cursor", req: post("", `{ searchShops(name: "茶", after: "`+hostileCursor+`") { edges { cursor } } }`, nil), code: "BAD_USER_INPUT", field: "after"},
			{name: "10 000-character cursor", req: post("", hot, map[string]any{"a": strings.Repeat("A", 10_000)}), code: "BAD_USER_INPUT", field: "after"},
			{name: "10 000-character nickname", req: post(user, update, map[string]any{"in": map[string]any{"nickName": long}}), code: "BAD_USER_INPUT", field: "input.nickName"},
			{name: "10 000-character blog title", req: post(user, blog, map[string]any{"in": map[string]any{"title": long, "content": "c"}}), code: "BAD_USER_INPUT", field: "input.title"},
			{name: "10 000-character search", req: post("", search, map[string]any{"n": long}), code: "BAD_USER_INPUT", field: "name"},
			{name: "NUL in nickname", req: post(user, update, map[string]any{"in": map[string]any{"nickName": "a\x00b"}}), code: "BAD_USER_INPUT", field: "input.nickName"},
			{name: "escape sequence in nickname", req: post(user, update, map[string]any{"in": map[string]any{"nickName": "\x1b[31mred"}}), code: "BAD_USER_INPUT", field: "input.nickName"},
			{name: "newline in nickname", req: post(user, update, map[string]any{"in": map[string]any{"nickName": "two\nlines"}}), code: "BAD_USER_INPUT", field: "input.nickName"},
			{name: "33 emoji nickname", req: post(user, update, map[string]any{"in": map[string]any{"nickName": strings.Repeat("😀", 33)}}), code: "BAD_USER_INPUT", field: "input.nickName"},
			{name: "negative first", req: post("", `{ hotBlogs(first: -1) { edges { node { id } } } }`, nil), code: "BAD_USER_INPUT", field: "first"},
			{name: "huge first", req: post("", `{ hotBlogs(first: 2147483647) { edges { node { id } } } }`, nil), code: "BAD_USER_INPUT", field: "first"},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := ts.rowCounts()
				r := ts.raw(c.req.method, c.req.contentType, c.req.query, c.req.body, c.req.token)
				if r.Status >= 500 || (c.status != 0 && r.Status != c.status) {
					t.Errorf("status %d, want %d", r.Status, c.status)
				}
				if len(r.Errors) == 0 {
					t.Fatalf("no error; data %s", r.Data)
				}
				e := r.Errors[0]
				if got := e.Extensions["code"]; got != c.code {
					t.Errorf("code %v, want %s (%q)", got, c.code, e.Message)
				}
				if c.field != "" && e.Extensions["field"] != c.field {
					t.Errorf("field %v, want %s (%q)", e.Extensions["field"], c.field, e.Message)
				}
				for _, s := range c.noMessage {
					if strings.Contains(e.Message, s) {
						t.Errorf("message %q has %q", e.Message, s)
					}
				}
				if len(e.Message) > 500 {
					t.Errorf("message of %d bytes", len(e.Message))
				}
				if diff := cmp.Diff(before, ts.rowCounts()); diff != "" {
					t.Errorf("rows changed (-before +after):\n%s", diff)
				}
				if s := ts.readyz(); s != http.StatusOK {
					t.Fatalf("/readyz %d", s)
				}
			})
		}

		// What is valid is kept as sent: emoji, and % and _ searched for
		// literally (no LIKE wildcards).
		var me struct {
			UpdateProfile struct{ NickName string }
		}
		ts.ok(user, `mutation { updateProfile(input: {nickName: "吃货😀🍜"}) { nickName } }`, nil, &me)
		if me.UpdateProfile.NickName != "吃货😀🍜" {
			t.Fatalf("nickname %q", me.UpdateProfile.NickName)
		}
		var found struct {
			SearchShops struct {
				Edges []struct{ Node struct{ Name string } }
			}
		}
		for _, q := range []string{"%", "_", "%%", "茶%", "_茶"} {
			ts.ok("", search, map[string]any{"n": q}, &found)
			for _, e := range found.SearchShops.Edges {
				if !strings.Contains(e.Node.Name, q) {
					t.Errorf("search %q found %q: a wildcard", q, e.Node.Name)
				}
			}
		}
		if s := ts.readyz(); s != http.StatusOK {
			t.Fatalf("/readyz %d", s)
		}
	})
}
