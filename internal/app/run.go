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
)

// NewLogger is the server's structured logger: JSON lines on stdout at level
// ("debug", "info", "warn" or "error"; LoadConfig has validated it).
func NewLogger(level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level)) // validated by LoadConfig
	return slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: l}))
}

// Seed migrates the database and loads the demo data if it is empty ("make seed").
func Seed(ctx context.Context, cfg Config, log *slog.Logger) error {
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
func Run(ctx context.Context, cfg Config, log *slog.Logger) error {
	RouteDriverLogs(log)
	a, err := New(ctx, cfg, log, Options{})
	if err != nil {
		return err
	}
	defer a.Close() //nolint:contextcheck // Close takes no context: it bounds its own shutdown steps

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("HMDP_ADDR: %w", err)
	}
	srv := newHTTPServer(a.Handler(), cfg)
	if cfg.PprofAddr != "" {
		_, stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			return err
		}
		defer stopPprof()
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
func newHTTPServer(handler http.Handler, cfg Config) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: min(10*time.Second, cfg.ReadTimeout),
		ReadTimeout:       cfg.ReadTimeout,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       cfg.IdleTimeout,
	}
}

// servePprof serves Go's profiler on its own listener, apart from the API's
// handler, its middleware and its timeouts (a CPU profile takes 30 s).
func servePprof(addr string, log *slog.Logger) (bound string, stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
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
