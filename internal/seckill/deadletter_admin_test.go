package seckill

import (
	"context"
	"testing"

	"github.com/hmdp/hmdp/ent/operatoraudit"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/testenv"
)

// The service refuses replayDeadLetter and discardDeadLetter to anyone but
// an admin, whatever the GraphQL directive did: a logged-in non-admin is
// FORBIDDEN and nobody UNAUTHENTICATED, the dead letter stays and nothing is
// audited; an admin's discard is audited under their user id.
func TestDeadLetterActionsAdminOnly(t *testing.T) {
	testenv.ForEachBackend(t, func(t *testing.T, b testenv.Backends) {
		cfg, tl := withTold(fast)
		f := newService(t, b, cfg)
		v, _, d := f.deadLettered(t, tl, 3, 8)
		user := auth.WithViewer(context.Background(), &auth.Viewer{UserID: 8})
		admin := auth.WithViewer(context.Background(), &auth.Viewer{UserID: 1, Admin: true})
		for _, c := range []struct {
			name string
			ctx  context.Context
			want apperr.Code
		}{{"non-admin", user, apperr.Forbidden}, {"anonymous", context.Background(), apperr.Unauthenticated}} {
			if _, err := f.s.AdminReplayDeadLetter(c.ctx, v, d.ID); apperr.CodeOf(err) != c.want {
				t.Fatalf("%s replay: %v, want %s", c.name, err, c.want)
			}
			if _, err := f.s.AdminDiscardDeadLetter(c.ctx, v, d.ID); apperr.CodeOf(err) != c.want {
				t.Fatalf("%s discard: %v, want %s", c.name, err, c.want)
			}
		}
		if ds, err := f.s.DeadLetters(context.Background(), v, "", 10); err != nil || len(ds) != 1 {
			t.Fatalf("dead letters after the refusals: %v %v", ds, err)
		}
		if n, err := b.DB.Client.OperatorAudit.Query().Where(operatoraudit.VoucherID(v)).Count(context.Background()); err != nil || n != 0 {
			t.Fatalf("refused actions audited: %d rows (%v)", n, err)
		}
		r, err := f.s.AdminDiscardDeadLetter(admin, v, d.ID)
		if err != nil || r.Outcome != OutcomeDiscarded {
			t.Fatalf("admin discard: %+v %v", r, err)
		}
		row, err := b.DB.Client.OperatorAudit.Get(context.Background(), r.AuditID)
		if err != nil || row.Actor != "user:1" {
			t.Fatalf("audit row %+v %v, want actor user:1", row, err)
		}
	})
}
