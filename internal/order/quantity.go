package order

import (
	"context"

	"github.com/hmdp/hmdp/ent"
	entquantity "github.com/hmdp/hmdp/ent/orderquantity"
	"github.com/hmdp/hmdp/ent/schema/enum"
)

// Quantity is how many units o holds: BuyVoucher's quantity, recorded in
// hmdp_order_quantity with the order; 1 for an order without a row (every
// flash-sale order, and every order placed before quantities were stored).
func (s *Service) Quantity(ctx context.Context, o *Order) (int, error) {
	if o.Quantity > 0 {
		return o.Quantity, nil
	}
	if o.Status == enum.OrderPending || o.Status == enum.OrderRejected {
		return 1, nil // a flash sale's: never in MySQL with a quantity
	}
	return quantityOf(ctx, s.db, o.ID)
}

func quantityOf(ctx context.Context, db *ent.Client, id int64) (int, error) {
	q, err := db.OrderQuantity.Query().Where(entquantity.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return 1, nil
	}
	if err != nil {
		return 0, err
	}
	return q.Quantity, nil
}

// fillQuantities sets the quantities of a page of orders, in one statement.
func (s *Service) fillQuantities(ctx context.Context, os []*Order) error {
	ids := make([]int64, 0, len(os))
	for _, o := range os {
		if o.Quantity == 0 && o.Status != enum.OrderPending && o.Status != enum.OrderRejected {
			ids = append(ids, o.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	qs, err := s.db.OrderQuantity.Query().Where(entquantity.IDIn(ids...)).All(ctx)
	if err != nil {
		return err
	}
	byID := make(map[int64]int, len(qs))
	for _, q := range qs {
		byID[q.ID] = q.Quantity
	}
	for _, o := range os {
		if o.Quantity == 0 {
			o.Quantity = max(byID[o.ID], 1)
		}
	}
	return nil
}

// Amount is what order o costs, in fen: its voucher's pay_value × its
// quantity, from MySQL, never a client's figure. It is the one place an
// order's price is computed: a payment attempt records it (payOrder), the
// provider's notifies are checked against the attempt, and a refund pays back
// at most the attempt's amount.
func (s *Service) Amount(ctx context.Context, o *Order) (int64, error) {
	v, err := s.db.Voucher.Get(ctx, o.VoucherID)
	if err != nil {
		return 0, err
	}
	q, err := s.Quantity(ctx, o)
	if err != nil {
		return 0, err
	}
	return v.PayValue * int64(q), nil
}
