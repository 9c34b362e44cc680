package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/config"
	"github.com/hmdp/hmdp/internal/order"
	"github.com/hmdp/hmdp/internal/reconcile"
)

// The operator's commands (server/main.go: hmdp reconcile, hmdp
// deadletters): the application built without its background workers, one
// action, its result printed as JSON lines.

// newReconcile builds the reconciliation job over the app's back ends; the
// buyers of lost orders it ends are told on orderUpdates.
func (a *App) newReconcile() *reconcile.Job {
	return reconcile.New(reconcile.Config{DB: a.db.Client, Redis: a.redis.Client, Prefix: a.cfg.RedisPrefix,
		Log: a.log, Registerer: a.registry, OnRejected: order.AnnounceRejected(a.resolver.OrderEvents)})
}

// startReconcile runs the job every HMDP_RECONCILE_EVERY on one instance.
func (a *App) startReconcile() {
	if a.cfg.ReconcileEvery > 0 {
		a.reconcileSchedule = a.reconcile.Start(a.locker, a.cfg.ReconcileEvery)
	}
}

// reconcileWait is how long hmdp reconcile waits for a run in progress
// elsewhere (the schedule's, another operator's) to end.
const reconcileWait = 30 * time.Second

// Reconcile runs the reconciliation job once (hmdp reconcile) and writes its
// report to out as JSON.
func Reconcile(ctx context.Context, cfg config.Config, log *slog.Logger, opt reconcile.Options, out io.Writer) error {
	RouteDriverLogs(log)
	a, err := New(ctx, cfg, log, Options{Operator: true})
	if err != nil {
		return err
	}
	defer a.Close() //nolint:contextcheck // Close takes no context: it bounds its own shutdown steps
	rep, err := a.reconcile.Locked(ctx, a.locker, reconcileWait, opt)
	if err != nil {
		return err
	}
	return json.NewEncoder(out).Encode(rep)
}

// DeadLetterCommand is one hmdp deadletters command.
type DeadLetterCommand struct {
	// Action is list, replay or discard.
	Action string
	// Sale is the voucher id (list: 0 = every sale with dead letters).
	Sale int64
	// ID is the dead letter's id (replay, discard); After and Limit page a list.
	ID, After string
	Limit     int
	// Actor is who acts, as the audit row records it ("cli:<name>").
	Actor string
}

// maxListSales bounds the sales a list of every sale looks at.
const maxListSales = 1000

// DeadLetters runs one dead-letter command and writes its result to out, one
// JSON object a line.
func DeadLetters(ctx context.Context, cfg config.Config, log *slog.Logger, c DeadLetterCommand, out io.Writer) error {
	if c.Action != "list" && c.Action != "replay" && c.Action != "discard" {
		return apperr.BadInput("action", "must be list, replay or discard")
	}
	RouteDriverLogs(log)
	a, err := New(ctx, cfg, log, Options{Operator: true})
	if err != nil {
		return err
	}
	defer a.Close() //nolint:contextcheck // Close takes no context: it bounds its own shutdown steps
	enc := json.NewEncoder(out)
	switch c.Action {
	case "replay", "discard":
		act := a.seckill.ReplayDeadLetter
		if c.Action == "discard" {
			act = a.seckill.DiscardDeadLetter
		}
		r, err := act(ctx, c.Actor, c.Sale, c.ID)
		if err != nil {
			return err
		}
		return enc.Encode(r)
	}
	sales := []int64{c.Sale}
	if c.Sale == 0 {
		if sales, err = a.seckill.DeadLetterSales(ctx, maxListSales); err != nil {
			return err
		}
	}
	if c.Limit == 0 {
		c.Limit = 100
	}
	for _, v := range sales {
		ds, err := a.seckill.DeadLetters(ctx, v, c.After, c.Limit)
		if err != nil {
			return fmt.Errorf("sale %d: %w", v, err)
		}
		for _, d := range ds {
			if err := enc.Encode(d); err != nil {
				return err
			}
		}
	}
	return nil
}
