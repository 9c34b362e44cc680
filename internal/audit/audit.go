// Package audit is the operator audit, hmdp_operator_audit: who (an admin),
// when, and what they did to which shop, voucher or order. The services that
// own the operator actions (shop, voucher, order; seckill for dead letters)
// check the viewer with Operator before anything else, so an action is
// refused on the server whatever the GraphQL directive did, and write the
// row with Record in the action's own transaction, so a row exists exactly
// for each change that committed.
package audit

import (
	"context"
	"strconv"
	"unicode/utf8"

	"github.com/hmdp/hmdp/ent"
	entaudit "github.com/hmdp/hmdp/ent/operatoraudit"
	"github.com/hmdp/hmdp/ent/schema/enum"
	"github.com/hmdp/hmdp/ent/schema/maxlen"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/page"
)

// OutcomeDone is the outcome of an action recorded in its own transaction.
const OutcomeDone = "done"

// Operator returns who acts ("user:<id>", as the audit records it) when the
// request's viewer is an admin (HMDP_ADMIN_PHONES): UNAUTHENTICATED without a
// viewer, FORBIDDEN for anyone else.
func Operator(ctx context.Context) (string, error) {
	v := auth.ViewerFrom(ctx)
	if v == nil {
		return "", apperr.New(apperr.Unauthenticated, "log in first")
	}
	if !v.Admin {
		return "", apperr.New(apperr.Forbidden, "admins only")
	}
	return "user:" + strconv.FormatInt(v.UserID, 10), nil
}

// Entry is what an action did and to what (0: not concerned).
type Entry struct {
	Action                             enum.OperatorAction
	ShopID, VoucherID, OrderID, UserID int64
	// Detail says what changed, cut to maxlen.AuditDetail characters.
	Detail string
}

// Record writes e, done by actor, in tx.
func Record(ctx context.Context, tx *ent.Tx, actor string, e Entry) error {
	detail := e.Detail
	if utf8.RuneCountInString(detail) > maxlen.AuditDetail {
		detail = string([]rune(detail)[:maxlen.AuditDetail-1]) + "…"
	}
	return tx.OperatorAudit.Create().SetActor(actor).SetAction(e.Action).SetShopID(e.ShopID).
		SetVoucherID(e.VoucherID).SetOrderID(e.OrderID).SetUserID(e.UserID).SetDeadID("").
		SetOutcome(OutcomeDone).SetDetail(detail).Exec(ctx)
}

// Service reads the audit.
type Service struct{ db *ent.Client }

// New returns the service.
func New(db *ent.Client) *Service { return &Service{db: db} }

// Page is a page of the audit (GraphQL OperatorAuditConnection).
type Page struct {
	Edges []Edge
	Info  page.Info
}

// Edge is one row of a page.
type Edge struct {
	Cursor page.Cursor
	Node   *ent.OperatorAudit
}

// List returns the audit, newest first, for an admin; shopID narrows it to
// the actions on that shop (its vouchers and orders included).
func (s *Service) List(ctx context.Context, shopID *int64, first *int, after *string) (*Page, error) {
	if _, err := Operator(ctx); err != nil {
		return nil, err
	}
	n, err := page.First(first)
	if err != nil {
		return nil, err
	}
	cur, err := page.After(after)
	if err != nil {
		return nil, err
	}
	q := s.db.OperatorAudit.Query()
	if shopID != nil {
		q = q.Where(entaudit.ShopID(*shopID))
	}
	if cur != nil {
		q = q.Where(entaudit.IDLT(int(cur.ID)))
	}
	rows, err := q.Order(ent.Desc(entaudit.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	p := &Page{Edges: []Edge{}, Info: page.Make(len(rows), n, func(i int) page.Cursor { return page.Cursor{ID: int64(rows[i].ID)} })}
	for _, r := range rows[:min(n, len(rows))] {
		p.Edges = append(p.Edges, Edge{Cursor: page.Cursor{ID: int64(r.ID)}, Node: r})
	}
	p.Info.HasPreviousPage = cur != nil
	return p, nil
}
