package tracing

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// untraced are the paths probed all the time (load balancers, Prometheus):
// a trace each would bury the requests worth looking at.
var untraced = map[string]bool{"/healthz": true, "/readyz": true, "/metrics": true}

// HTTP wraps next in a server span per request, named by method and route.
// A traceparent header is continued only when trusted says the request came
// through a trusted proxy (HMDP_TRUSTED_PROXIES): a client could otherwise
// join its requests to any trace, or force sampling. From anyone else the
// request starts a trace of its own that links the one it named. Off (nil
// t), next is returned as is.
func (t *Tracing) HTTP(trusted func(*http.Request) bool, next http.Handler) http.Handler {
	if t == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if untraced[r.URL.Path] {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(
			attribute.String("http.request.method", r.Method),
			attribute.String("url.path", r.URL.Path),
		)}
		if remote := trace.SpanContextFromContext(propagator.Extract(ctx, propagation.HeaderCarrier(r.Header))); remote.IsValid() {
			if trusted(r) {
				ctx = trace.ContextWithRemoteSpanContext(ctx, remote)
			} else {
				opts = append(opts, trace.WithNewRoot(), trace.WithLinks(trace.Link{SpanContext: remote,
					Attributes: []attribute.KeyValue{attribute.Bool("untrusted", true)}}))
			}
		}
		ctx, span := t.tracer.Start(ctx, r.Method, opts...)
		defer span.End()
		sw := &statusWriter{ResponseWriter: w}
		r = r.WithContext(ctx)
		next.ServeHTTP(sw, r)
		if route := routeOf(r.Pattern); route != "" { // the ServeMux sets r.Pattern
			span.SetName(r.Method + " " + route)
			span.SetAttributes(attribute.String("http.route", route))
		}
		if sw.status != 0 {
			span.SetAttributes(attribute.Int("http.response.status_code", sw.status))
		}
		if sw.status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(sw.status))
		}
	})
}

// routeOf is a ServeMux pattern without its method ("GET /images/{name}" →
// "/images/{name}"): a route, bounded in number, unlike paths.
func routeOf(pattern string) string {
	if _, route, ok := strings.Cut(pattern, " "); ok {
		return route
	}
	return pattern
}

// statusWriter notes the status code on its way out. It keeps what the
// websocket upgrade and streaming need: Hijack and Flush reach the
// connection's own writer.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Hijack hands the connection over (a websocket upgrade: 101).
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("tracing: the response writer cannot be hijacked")
	}
	c, rw, err := h.Hijack()
	if err == nil && w.status == 0 {
		w.status = http.StatusSwitchingProtocols
	}
	return c, rw, err
}

// Flush sends what is buffered.
func (w *statusWriter) Flush() {
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
