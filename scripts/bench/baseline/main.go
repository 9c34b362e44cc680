// Command baseline is the yardstick of make bench-http: the least a Go
// net/http server can do to answer a request, so the hmdp server's rates are
// read as a fraction of it. It reads the body, then answers with the bytes of
// -body (a response the real server gave) as JSON; with -op NAME=FILE given
// (repeatable), a request whose body names operation NAME gets FILE's bytes,
// so a page of several requests gets each of its answers.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
)

type answer struct {
	body   []byte
	length string
}

func load(path string) answer {
	b, err := os.ReadFile(path) //nolint:gosec // the bench driver's own files
	if err != nil {
		log.Fatal(err)
	}
	return answer{b, strconv.Itoa(len(b))}
}

// ops collects -op NAME=FILE flags.
type ops map[string]answer

func (o ops) String() string { return fmt.Sprint(len(o)) }
func (o ops) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want NAME=FILE, got %q", v)
	}
	o[`"operationName":"`+name+`"`] = load(path)
	return nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:18081", "listen address")
	bodyPath := flag.String("body", "", "file whose bytes every other answer carries")
	byOp := ops{}
	flag.Var(byOp, "op", "NAME=FILE: the answer to requests of operation NAME (repeatable)")
	flag.Parse()
	var fallback answer
	if *bodyPath != "" {
		fallback = load(*bodyPath)
	}
	log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { //nolint:gosec // a benchmark yardstick on loopback
		req, _ := io.ReadAll(r.Body)
		a := fallback
		for key, ans := range byOp {
			if bytes.Contains(req, []byte(key)) {
				a = ans
				break
			}
		}
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{a.length}
		_, _ = w.Write(a.body)
	})))
}
