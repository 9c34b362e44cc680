package order

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	entorder "github.com/hmdp/hmdp/ent/order"
	"github.com/hmdp/hmdp/ent/schema/enum"
	entshop "github.com/hmdp/hmdp/ent/shop"
	entvoucher "github.com/hmdp/hmdp/ent/voucher"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/audit"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/page"
)

// The operator's side of orders (the console): each method checks the viewer
// is an admin (audit.Operator); Redeem records itself in hmdp_operator_audit
// in its own transaction.

// Redeem marks a paid order USED (the buyer used the voucher in the shop),
// for an admin. Redeeming a used order returns it unchanged (and is audited
// as such); any other status is a CONFLICT.
func (s *Service) Redeem(ctx context.Context, id int64) (*Order, error) {
	actor, err := audit.Operator(ctx)
	if err != nil {
		return nil, err
	}
	var n int
	var o *ent.Order
	err = database.WithTx(ctx, s.db, func(tx *ent.Tx) error {
		n, err = tx.Order.Update().Where(entorder.ID(id), entorder.Status(enum.OrderPaid)).
			SetStatus(enum.OrderUsed).SetUseTime(s.now()).Save(ctx)
		if err != nil {
			return err
		}
		o, err = tx.Order.Get(ctx, id)
		if ent.IsNotFound(err) {
			return apperr.New(apperr.NotFound, "no order %d", id)
		}
		if err != nil {
			return err
		}
		if n == 0 && o.Status != enum.OrderUsed {
			return apperr.New(apperr.Conflict, "the order is %s: only paid orders can be redeemed", o.Status)
		}
		v, err := tx.Voucher.Get(ctx, o.VoucherID)
		if err != nil {
			return err
		}
		detail := "used"
		if n == 0 {
			detail = "already used"
		}
		return audit.Record(ctx, tx, actor, audit.Entry{Action: enum.OperatorRedeemOrder, ShopID: v.ShopID,
			VoucherID: o.VoucherID, OrderID: id, UserID: o.UserID, Detail: detail})
	})
	if err != nil {
		return nil, err
	}
	out := fromEnt(o)
	if n == 1 {
		s.notifier.OrderChanged(ctx, out)
	}
	return out, nil
}

// ShopOrders returns the orders of a shop's vouchers (persisted ones: MySQL),
// newest (highest id) first, for an admin; status narrows them to one status.
func (s *Service) ShopOrders(ctx context.Context, shopID int64, status *enum.OrderStatus, first *int, after *string) (*Page, error) {
	if _, err := audit.Operator(ctx); err != nil {
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
	if ok, err := s.db.Shop.Query().Where(entshop.ID(shopID)).Exist(ctx); err != nil {
		return nil, err
	} else if !ok {
		return nil, apperr.New(apperr.NotFound, "no shop %d", shopID)
	}
	vids, err := s.db.Voucher.Query().Where(entvoucher.ShopID(shopID)).IDs(ctx)
	if err != nil {
		return nil, err
	}
	p := &Page{Edges: []Edge{}}
	if len(vids) == 0 {
		return p, nil
	}
	q := s.db.Order.Query().Where(entorder.VoucherIDIn(vids...))
	if status != nil {
		q = q.Where(entorder.Status(*status))
	}
	if cur != nil {
		q = q.Where(entorder.IDLT(cur.ID))
	}
	rows, err := q.Order(ent.Desc(entorder.FieldID)).Limit(n + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	p.Info = page.Make(len(rows), n, func(i int) page.Cursor { return page.Cursor{ID: rows[i].ID} })
	nodes := make([]*Order, 0, min(n, len(rows)))
	for _, r := range rows[:min(n, len(rows))] {
		nodes = append(nodes, fromEnt(r))
		p.Edges = append(p.Edges, Edge{Cursor: page.Cursor{ID: r.ID}, Node: nodes[len(nodes)-1]})
	}
	if err := s.fillQuantities(ctx, nodes); err != nil {
		return nil, err
	}
	p.Info.HasPreviousPage = cur != nil
	return p, nil
}
