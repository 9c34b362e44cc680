package app

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
)

// benchHTTP is the benchmarks' HTTP/1.1 client: keep-alive connections, each
// used by one goroutine at a time, a request written with one write and the
// response read in the caller's goroutine. That is how load generators such
// as wrk work. net/http's client hands every request to two goroutines per
// connection and back, which on this 2-core machine costs about as much CPU
// as the server's side of the request, and that cost would be charged to the
// server in ratios against go-redis (which works like this client).
// HMDP_BENCH_CLIENT=net/http measures with net/http's client instead.
type benchHTTP struct {
	ctx   context.Context // the benchmark's: bounds the dials and requests
	host  string
	idle  chan *benchConn
	std   *http.Client // when HMDP_BENCH_CLIENT=net/http
	stdTo string
}

type benchConn struct {
	c  net.Conn
	br *bufio.Reader
	bw *bufio.Writer
}

func newBenchHTTP(ctx context.Context, serverURL string, conns int) *benchHTTP {
	u, err := url.Parse(serverURL)
	if err != nil {
		panic(err)
	}
	h := &benchHTTP{ctx: ctx, host: u.Host, idle: make(chan *benchConn, conns)}
	if os.Getenv("HMDP_BENCH_CLIENT") == "net/http" {
		h.std = &http.Client{Transport: &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}
		h.stdTo = serverURL
	}
	return h
}

// post sends a POST of a JSON body to /graphql with extra headers (name,
// value pairs) and returns the status and the response body.
func (h *benchHTTP) post(body []byte, headers ...string) (int, []byte, error) {
	if h.std != nil {
		return h.postStd(body, headers)
	}
	var c *benchConn
	select {
	case c = <-h.idle:
	default:
		nc, err := new(net.Dialer).DialContext(h.ctx, "tcp", h.host)
		if err != nil {
			return 0, nil, err
		}
		c = &benchConn{c: nc, br: bufio.NewReader(nc), bw: bufio.NewWriter(nc)}
	}
	fmt.Fprintf(c.bw, "POST /graphql HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", h.host, len(body))
	for i := 0; i+1 < len(headers); i += 2 {
		fmt.Fprintf(c.bw, "%s: %s\r\n", headers[i], headers[i+1])
	}
	// bufio.Writer errors are sticky: Flush below reports any of them.
	_, _ = c.bw.WriteString("\r\n")
	_, _ = c.bw.Write(body)
	if err := c.bw.Flush(); err != nil {
		c.c.Close()
		return 0, nil, err
	}
	res, err := http.ReadResponse(c.br, nil)
	if err != nil {
		c.c.Close()
		return 0, nil, err
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.Close {
		c.c.Close()
		return res.StatusCode, raw, err
	}
	select {
	case h.idle <- c:
	default:
		c.c.Close()
	}
	return res.StatusCode, raw, nil
}

func (h *benchHTTP) postStd(body []byte, headers []string) (int, []byte, error) {
	req, _ := http.NewRequestWithContext(h.ctx, http.MethodPost, h.stdTo+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := h.std.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, raw, err
}

// close closes the idle connections.
func (h *benchHTTP) close() {
	for {
		select {
		case c := <-h.idle:
			c.c.Close()
		default:
			if h.std != nil {
				h.std.CloseIdleConnections()
			}
			return
		}
	}
}
