// Command server runs the hmdp GraphQL API (the application is internal/app).
//
//	go run ./server            # embedded SQLite + embedded Redis, demo data, :8080
//	go run ./server seed       # migrate the configured database and load the demo data
//	go run ./server seed-sessions -n 100000 -first 15000000000 -out tokens.txt
//	                           # log that many phones in (as a login code does) for load tests
//	HMDP_MYSQL_DSN=... HMDP_REDIS_ADDR=... go run ./server
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/hmdp/hmdp/internal/app"
)

func main() {
	args, cmd := os.Args[1:], app.Run
	if len(args) > 0 && args[0] == "seed" {
		args, cmd = args[1:], app.Seed
	}
	if len(args) > 0 && args[0] == "seed-sessions" {
		args, cmd = seedSessions(args[1:])
	}
	cfg, err := app.LoadConfig(args, os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "config:", err)
		os.Exit(2)
	}
	log := app.NewLogger(cfg.LogLevel)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err = cmd(ctx, cfg, log)
	stop()
	if err != nil {
		log.Error("server stopped", "err", err)
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// seedSessions reads the seed-sessions flags (the rest are the server's
// settings) and returns the command that writes the tokens.
func seedSessions(args []string) ([]string, func(context.Context, app.Config, *slog.Logger) error) {
	fs := flag.NewFlagSet("seed-sessions", flag.ExitOnError)
	var seed app.SessionSeed
	fs.IntVar(&seed.Count, "n", 1000, "sessions (distinct users) to make")
	fs.Int64Var(&seed.First, "first", 15000000000, "first phone; the others follow it")
	fs.IntVar(&seed.Workers, "workers", 32, "logins at once")
	outPath := fs.String("out", "tokens.txt", `file to write "token phone" lines to`)
	_ = fs.Parse(args)
	return fs.Args(), func(ctx context.Context, cfg app.Config, log *slog.Logger) error {
		f, err := os.Create(*outPath)
		if err != nil {
			return err
		}
		if err := app.SeedSessions(ctx, cfg, log, seed, f); err != nil {
			_ = f.Close()
			return err
		}
		return f.Close()
	}
}
