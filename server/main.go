// Command server runs the hmdp GraphQL API.
//
//	go run ./server            # embedded SQLite + embedded Redis, demo data, :8080
//	HMDP_MYSQL_DSN=... HMDP_REDIS_ADDR=... go run ./server
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	args, cmd := os.Args[1:], run
	if len(args) > 0 && args[0] == "seed" {
		args, cmd = args[1:], seedOnly
	}
	cfg, err := LoadConfig(args, os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "config:", err)
		os.Exit(2)
	}
	log := newLogger(cfg.LogLevel)
	if err := cmd(cfg, log); err != nil {
		log.Error("server stopped", "err", err)
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func newLogger(level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{Level: l}))
}

// seedOnly migrates the database and loads the demo data if it is empty ("make seed").
func seedOnly(cfg Config, log *slog.Logger) error {
	cfg.Seed = true
	app, err := NewApp(context.Background(), cfg, log, Options{})
	if err != nil {
		return err
	}
	app.Close()
	return nil
}

func run(cfg Config, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	app, err := NewApp(ctx, cfg, log, Options{})
	if err != nil {
		return err
	}
	defer app.Close()

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("HMDP_ADDR: %w", err)
	}
	srv := &http.Server{
		Handler:           app.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	log.Info("listening", "addr", ln.Addr().String(), "playground", cfg.Playground, "graphql", "/graphql")
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: closing subscriptions, draining requests", "grace", cfg.ShutdownGrace.String())
	app.Stop()
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopping workers: finishing the batches they hold")
	app.StopWorkers(sctx)
	log.Info("stopped")
	return nil
}
