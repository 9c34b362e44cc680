package order

import (
	"time"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/schema/enum"
)

// Order is a flash-sale order as clients see it (GraphQL VoucherOrder).
type Order struct {
	ID         int64
	VoucherID  int64
	UserID     int64
	Status     enum.OrderStatus
	PayType    *enum.PayType
	CreateTime time.Time
	PayTime    *time.Time
	UseTime    *time.Time
	RefundTime *time.Time
	// Quantity is how many units the order holds (hmdp_order_quantity; 1
	// without a row); 0 until read (Service.Quantity).
	Quantity int `json:",omitempty"`
	// CancelReason is set when the change that produced this value was a
	// cancellation; otherwise it is read from hmdp_order_cancel on demand.
	Reason *enum.CancelReason `json:",omitempty"`
	// RejectReason says why a REJECTED order was ended (nil otherwise).
	RejectReason *string
	// Payment is the order's latest payment attempt when the change that
	// produced this value was one of its payment's; otherwise it is read on
	// demand (Service.Payment).
	Payment *Payment `json:",omitempty"`
}

// fromEnt maps a tb_voucher_order row. pay_type has a default of 1 in hmdp.sql,
// so it is shown only once the order is paid.
func fromEnt(o *ent.Order) *Order {
	out := &Order{ID: o.ID, VoucherID: o.VoucherID, UserID: o.UserID, CreateTime: o.CreateTime,
		PayTime: o.PayTime, UseTime: o.UseTime, RefundTime: o.RefundTime, Status: o.Status}
	if o.PayTime != nil && o.PayType.Valid() {
		out.PayType = &o.PayType
	}
	return out
}
