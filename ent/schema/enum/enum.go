// Package enum defines the coded columns of the original tables as named
// values: the integers hmdp.sql stores, and the GraphQL enum values clients
// see. The ent schema types its fields with them, so every reader and writer
// (ent queries, raw SQL, GraphQL) uses these names and nothing else.
package enum

import (
	"fmt"
	"io"
	"strconv"
)

// OrderStatus is tb_voucher_order.status (GraphQL OrderStatus).
type OrderStatus int

// The statuses of hmdp.sql, 1 to 6, and OrderPending: an order admitted by
// the flash sale's Redis script and not yet written to MySQL. OrderPending is
// never stored; it is what readers report for an order only Redis knows.
const (
	OrderPending OrderStatus = iota
	OrderUnpaid
	OrderPaid
	OrderUsed
	OrderCancelled
	OrderRefunding
	OrderRefunded
	// OrderRejected is, like OrderPending, never stored: an accepted order the
	// flash sale ended without persisting it (its unit and buyer released).
	OrderRejected
)

var orderStatusNames = [...]string{"PENDING", "UNPAID", "PAID", "USED", "CANCELLED", "REFUNDING", "REFUNDED", "REJECTED"}

// String is the GraphQL name ("UNPAID").
func (s OrderStatus) String() string {
	if s < 0 || int(s) >= len(orderStatusNames) {
		return "OrderStatus(" + strconv.Itoa(int(s)) + ")"
	}
	return orderStatusNames[s]
}

// MarshalGQL writes the GraphQL enum value.
func (s OrderStatus) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(s.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (s *OrderStatus) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range orderStatusNames {
		if name == str {
			*s = OrderStatus(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not an OrderStatus", v)
}

// PayType is tb_voucher_order.pay_type (GraphQL PayType).
type PayType int

// The payment methods of hmdp.sql. The column defaults to PayBalance, so a
// pay type means something only once the order is paid.
const (
	PayBalance PayType = 1 + iota
	PayAlipay
	PayWechat
)

var payTypeNames = [...]string{PayBalance: "BALANCE", PayAlipay: "ALIPAY", PayWechat: "WECHAT"}

// Valid reports whether p is one of the stored values.
func (p PayType) Valid() bool { return p >= PayBalance && p <= PayWechat }

// String is the GraphQL name ("ALIPAY").
func (p PayType) String() string {
	if !p.Valid() {
		return "PayType(" + strconv.Itoa(int(p)) + ")"
	}
	return payTypeNames[p]
}

// MarshalGQL writes the GraphQL enum value.
func (p PayType) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(p.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (p *PayType) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range payTypeNames {
		if name != "" && name == str {
			*p = PayType(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not a PayType", v)
}

// CancelReason is why an order was cancelled (hmdp_order_cancel.reason,
// GraphQL CancelReason): by its buyer, or by the server when the payment
// window closed.
type CancelReason int

// The cancellation reasons; 0 is never stored.
const (
	CancelByBuyer CancelReason = 1 + iota
	CancelPayTimeout
)

var cancelReasonNames = [...]string{CancelByBuyer: "BUYER", CancelPayTimeout: "PAY_TIMEOUT"}

// Valid reports whether r is one of the stored values.
func (r CancelReason) Valid() bool { return r >= CancelByBuyer && r <= CancelPayTimeout }

// String is the GraphQL name ("PAY_TIMEOUT").
func (r CancelReason) String() string {
	if !r.Valid() {
		return "CancelReason(" + strconv.Itoa(int(r)) + ")"
	}
	return cancelReasonNames[r]
}

// MarshalGQL writes the GraphQL enum value.
func (r CancelReason) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(r.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (r *CancelReason) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range cancelReasonNames {
		if i > 0 && name == str {
			*r = CancelReason(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not a CancelReason", v)
}

// PaymentStatus is hmdp_pay_attempt.status (GraphQL PaymentStatus): where one
// payment attempt of an order stands with the payment provider.
type PaymentStatus int

// The payment statuses; 0 is never stored. PAYING -> PAID on the provider's
// pay notify (or CLOSED on its close notify; a CLOSED attempt the provider
// still charged becomes PAID); PAID -> REFUNDING when a refund is asked for
// (by the buyer, or automatically for money taken for an order that was no
// longer unpaid); REFUNDING -> REFUNDED on the provider's refund notify.
const (
	PaymentPaying PaymentStatus = 1 + iota
	PaymentPaid
	PaymentClosed
	PaymentRefunding
	PaymentRefunded
)

var paymentStatusNames = [...]string{PaymentPaying: "PAYING", PaymentPaid: "PAID", PaymentClosed: "CLOSED",
	PaymentRefunding: "REFUNDING", PaymentRefunded: "REFUNDED"}

// Valid reports whether p is one of the stored values.
func (p PaymentStatus) Valid() bool { return p >= PaymentPaying && p <= PaymentRefunded }

// Charged reports whether the provider took the attempt's money (it may have
// paid it back since).
func (p PaymentStatus) Charged() bool {
	return p == PaymentPaid || p == PaymentRefunding || p == PaymentRefunded
}

// String is the GraphQL name ("PAYING").
func (p PaymentStatus) String() string {
	if !p.Valid() {
		return "PaymentStatus(" + strconv.Itoa(int(p)) + ")"
	}
	return paymentStatusNames[p]
}

// MarshalGQL writes the GraphQL enum value.
func (p PaymentStatus) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(p.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (p *PaymentStatus) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range paymentStatusNames {
		if i > 0 && name == str {
			*p = PaymentStatus(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not a PaymentStatus", v)
}

// SaleState is where a flash sale stands for a buyer (GraphQL SaleState),
// from its Redis state and the clock; it is never stored.
type SaleState int

// The states in the order a sale passes through them.
const (
	SaleUpcoming SaleState = iota
	SaleOnSale
	SaleSoldOut
	SaleEnded
)

var saleStateNames = [...]string{"UPCOMING", "ON_SALE", "SOLD_OUT", "ENDED"}

// String is the GraphQL name ("ON_SALE").
func (s SaleState) String() string {
	if s < 0 || int(s) >= len(saleStateNames) {
		return "SaleState(" + strconv.Itoa(int(s)) + ")"
	}
	return saleStateNames[s]
}

// MarshalGQL writes the GraphQL enum value.
func (s SaleState) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(s.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (s *SaleState) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range saleStateNames {
		if name == str {
			*s = SaleState(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not a SaleState", v)
}
