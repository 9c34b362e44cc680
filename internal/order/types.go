package order

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/hmdp/hmdp/ent"
)

// Status is GraphQL's OrderStatus. PENDING exists only in Redis (accepted, not
// yet persisted); the others are tb_voucher_order.status 1..6.
type Status string

const (
	Pending   Status = "PENDING"
	Unpaid    Status = "UNPAID"
	Paid      Status = "PAID"
	Used      Status = "USED"
	Cancelled Status = "CANCELLED"
	Refunding Status = "REFUNDING"
	Refunded  Status = "REFUNDED"
)

var dbStatus = []Status{1: Unpaid, 2: Paid, 3: Used, 4: Cancelled, 5: Refunding, 6: Refunded}

// PayType is GraphQL's PayType (tb_voucher_order.pay_type 1..3).
type PayType string

const (
	Balance PayType = "BALANCE"
	Alipay  PayType = "ALIPAY"
	Wechat  PayType = "WECHAT"
)

var dbPayType = []PayType{1: Balance, 2: Alipay, 3: Wechat}

func payTypeCode(p PayType) int {
	for i, x := range dbPayType {
		if x == p && i > 0 {
			return i
		}
	}
	return 0
}

// Order is a flash-sale order as clients see it (GraphQL VoucherOrder).
type Order struct {
	ID         int64
	VoucherID  int64
	UserID     int64
	Status     Status
	PayType    *PayType
	CreateTime time.Time
	PayTime    *time.Time
	UseTime    *time.Time
	RefundTime *time.Time
}

// fromEnt maps a tb_voucher_order row. pay_type has a default of 1 in hmdp.sql,
// so it is shown only once the order is paid.
func fromEnt(o *ent.Order) *Order {
	out := &Order{ID: o.ID, VoucherID: o.VoucherID, UserID: o.UserID, CreateTime: o.CreateTime,
		PayTime: o.PayTime, UseTime: o.UseTime, RefundTime: o.RefundTime, Status: Unpaid}
	if o.Status > 0 && o.Status < len(dbStatus) {
		out.Status = dbStatus[o.Status]
	}
	if o.PayTime != nil && o.PayType > 0 && o.PayType < len(dbPayType) {
		pt := dbPayType[o.PayType]
		out.PayType = &pt
	}
	return out
}

// MarshalGQL writes the enum value.
func (s Status) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(s))) }

// UnmarshalGQL reads the enum value.
func (s *Status) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for _, x := range append([]Status{Pending}, dbStatus[1:]...) {
		if string(x) == str {
			*s = x
			return nil
		}
	}
	return fmt.Errorf("%v is not an OrderStatus", v)
}

// MarshalGQL writes the enum value.
func (p PayType) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(p))) }

// UnmarshalGQL reads the enum value.
func (p *PayType) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	if payTypeCode(PayType(str)) == 0 {
		return fmt.Errorf("%v is not a PayType", v)
	}
	*p = PayType(str)
	return nil
}
