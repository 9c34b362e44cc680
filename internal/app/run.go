package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/tracing"
)

// NewLogger is the server's structured logger: JSON lines on stdout at level
// ("debug", "info", "warn" or "error"; config.Load has validated it). A line
// logged with a traced request's context carries its trace_id and span_id.
func NewLogger(level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level)) // validated by config.Load
	return slog.New(tracing.LogHandler(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: l})))
}

// Seed migrates the database and loads the demo data if it is empty ("make seed").
func Seed(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	RouteDriverLogs(log)
	cfg.Seed = true
	a, err := New(ctx, cfg, log, Options{})
	if err != nil {
		return err
	}
	a.Close() //nolint:contextcheck // Close takes no context: it bounds its own shutdown steps
	return nil
}

// Run serves cfg.Addr until ctx ends, then shuts down in order: subscriptions
// are told and closed, in-flight requests drain (up to cfg.ShutdownGrace), the
// flash-sale consumers finish the batches they hold, and connections close.
func Run(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	RouteDriverLogs(log)
	a, err := New(ctx, cfg, log, Options{})
	if err != nil {
		return err
	}
	defer a.Close() //nolint:contextcheck // Close takes no context: it bounds its own shutdown steps

	ln, err := new(net.ListenConfig).Listen(ctx, "tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("HMDP_ADDR: %w", err)
	}
	srv := newHTTPServer(a.Handler(), cfg)
	if cfg.PprofAddr != "" {
		_, stopPprof, err := servePprof(ctx, cfg.PprofAddr, log)
		if err != nil {
			return err
		}
		defer stopPprof()
	}
	if cfg.MetricsAddr != "" {
		_, stopMetrics, err := serveMetrics(ctx, cfg.MetricsAddr, a.registry, log)
		if err != nil {
			return err
		}
		defer stopMetrics()
	} else if cfg.Env == "production" {
		log.Info("metrics are not served: set HMDP_METRICS_ADDR to serve /metrics on a listener of their own")
	}
	log.Info("listening", "addr", ln.Addr().String(), "env", cfg.Env, "playground", cfg.Playground,
		"introspection", cfg.Introspection, "sms_sender", "log", "graphql", "/graphql")
	if cfg.Env == "production" {
		log.Warn("production mode: login codes are written to the log (HMDP_SMS_SENDER=log); there is no SMS provider")
	} else {
		log.Info("development mode: introspection and the playground on unless switched off, login codes written to the log; set HMDP_ENV=production for deployments")
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: closing subscriptions, draining requests", "grace", cfg.ShutdownGrace.String())
	a.Stop() //nolint:contextcheck // Stop takes no context: it ends subscriptions at once
	// ctx has ended: the grace period keeps its values, not its cancellation.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopping workers: finishing the batches they hold")
	a.StopWorkers(sctx)
	log.Info("stopped")
	return nil
}

// newHTTPServer is the HTTP server of handler with cfg's timeouts. They bound
// requests only: a websocket leaves them behind once upgraded, since
// hijacking a connection clears the deadlines net/http set on it (and
// gorilla's Upgrade clears them again); the websocket then keeps its own, the
// heartbeat's read deadline and a write deadline per message
// (TestServerTimeoutsSpareWebsockets).
// maxHeaderBytes bounds a request's line and headers (431 over it).
const maxHeaderBytes = 64 << 10

func newHTTPServer(handler http.Handler, cfg config.Config) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: min(10*time.Second, cfg.ReadTimeout),
		// net/http's default is 1 MB; no header of this API's clients comes
		// near 64 KB, and a GET query longer than HMDP_MAX_QUERY_BYTES is
		// refused anyway.
		MaxHeaderBytes: maxHeaderBytes,
		ReadTimeout:    cfg.ReadTimeout,
		WriteTimeout:   cfg.WriteTimeout,
		IdleTimeout:    cfg.IdleTimeout,
	}
}

// serveMetrics serves the Prometheus metrics of g at /metrics on their own
// listener, apart from the API (whose port serves them in development only:
// the business counters are not for the public).
func serveMetrics(ctx context.Context, addr string, g prometheus.Gatherer, log *slog.Logger) (bound string, stop func(), err error) {
	ln, err := new(net.ListenConfig).Listen(ctx, "tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("HMDP_METRICS_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second, MaxHeaderBytes: maxHeaderBytes}
	go func() { _ = srv.Serve(ln) }()
	log.Info("metrics listening", "addr", ln.Addr().String(), "path", "/metrics")
	return ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// servePprof serves Go's profiler on its own listener, apart from the API's
// handler, its middleware and its timeouts (a CPU profile takes 30 s).
func servePprof(ctx context.Context, addr string, log *slog.Logger) (bound string, stop func(), err error) {
	ln, err := new(net.ListenConfig).Listen(ctx, "tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("HMDP_PPROF_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Info("profiler listening", "addr", ln.Addr().String(), "path", "/debug/pprof/")
	return ln.Addr().String(), func() { _ = srv.Close() }, nil
}
