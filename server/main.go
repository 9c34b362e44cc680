// Command server runs the hmdp GraphQL API (the application is internal/app).
//
//	go run ./server            # embedded SQLite + embedded Redis, demo data, :8080
//	go run ./server seed       # migrate the configured database and load the demo data
//	go run ./server seed-sessions -n 100000 -first 15000000000 -out tokens.txt
//	                           # log that many phones in (as a login code does) for load tests
//	go run ./server reconcile [-dry-run] [-sale ID]
//	                           # compare the Redis copies with MySQL once, repair what is safe
//	go run ./server deadletters list|replay|discard [-sale ID] [-id ID] [-as NAME]
//	                           # dead-lettered flash-sale orders: list them, or act on one
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
	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/reconcile"
)

func main() {
	args, cmd := os.Args[1:], app.Run
	if len(args) > 0 && args[0] == "seed" {
		args, cmd = args[1:], app.Seed
	}
	if len(args) > 0 && args[0] == "seed-sessions" {
		args, cmd = seedSessions(args[1:])
	}
	if len(args) > 0 && args[0] == "reconcile" {
		args, cmd = reconcileCmd(args[1:])
	}
	if len(args) > 0 && args[0] == "deadletters" {
		args, cmd = deadLettersCmd(args[1:])
	}
	cfg, err := config.Load(args, os.Getenv)
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
func seedSessions(args []string) ([]string, func(context.Context, config.Config, *slog.Logger) error) {
	fs := flag.NewFlagSet("seed-sessions", flag.ExitOnError)
	var seed app.SessionSeed
	fs.IntVar(&seed.Count, "n", 1000, "sessions (distinct users) to make")
	fs.Int64Var(&seed.First, "first", 15000000000, "first phone; the others follow it")
	fs.IntVar(&seed.Workers, "workers", 32, "logins at once")
	outPath := fs.String("out", "tokens.txt", `file to write "token phone" lines to`)
	_ = fs.Parse(args)
	return fs.Args(), func(ctx context.Context, cfg config.Config, log *slog.Logger) error {
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

// reconcileCmd reads the reconcile flags (the rest are the server's settings).
func reconcileCmd(args []string) ([]string, func(context.Context, config.Config, *slog.Logger) error) {
	fs := flag.NewFlagSet("reconcile", flag.ExitOnError)
	var opt reconcile.Options
	fs.BoolVar(&opt.DryRun, "dry-run", false, "report the differences, repair nothing")
	fs.Int64Var(&opt.Sale, "sale", 0, "compare only this flash sale (voucher id), and no other copies")
	_ = fs.Parse(args)
	return fs.Args(), func(ctx context.Context, cfg config.Config, log *slog.Logger) error {
		return app.Reconcile(ctx, cfg, log, opt, os.Stdout)
	}
}

// deadLettersCmd reads the deadletters action and flags.
func deadLettersCmd(args []string) ([]string, func(context.Context, config.Config, *slog.Logger) error) {
	var c app.DeadLetterCommand
	if len(args) > 0 {
		c.Action, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("deadletters "+c.Action, flag.ExitOnError)
	fs.Int64Var(&c.Sale, "sale", 0, "the flash sale (voucher id); list: 0 for every sale with dead letters")
	fs.StringVar(&c.ID, "id", "", "replay, discard: the dead letter's id (from list)")
	fs.StringVar(&c.After, "after", "", "list: start after this dead letter id")
	fs.IntVar(&c.Limit, "limit", 100, "list: dead letters per sale")
	as := fs.String("as", os.Getenv("USER"), "who acts, recorded in the audit row as cli:<name>")
	_ = fs.Parse(args)
	c.Actor = "cli:" + *as
	return fs.Args(), func(ctx context.Context, cfg config.Config, log *slog.Logger) error {
		return app.DeadLetters(ctx, cfg, log, c, os.Stdout)
	}
}
