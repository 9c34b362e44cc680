// Command baseline is the yardstick of make bench-http: the least a Go
// net/http server can do to answer a request, so the hmdp server's rates are
// read as a fraction of it. It reads and discards the body, then answers with
// the bytes of -body (a response the real server gave) as JSON.
package main

import (
	"flag"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18081", "listen address")
	bodyPath := flag.String("body", "", "file whose bytes every answer carries")
	flag.Parse()
	body, err := os.ReadFile(*bodyPath)
	if err != nil {
		log.Fatal(err)
	}
	n := strconv.Itoa(len(body))
	log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { //nolint:gosec // a benchmark yardstick on loopback
		_, _ = io.Copy(io.Discard, r.Body)
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{n}
		_, _ = w.Write(body)
	})))
}
