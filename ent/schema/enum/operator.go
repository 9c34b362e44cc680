package enum

import (
	"fmt"
	"io"
	"strconv"
)

// OperatorAction is hmdp_operator_audit.action (GraphQL OperatorAction): what
// an operator (an admin) did: to a dead-lettered flash-sale order, a shop, a
// voucher or an order.
type OperatorAction int

// The operator actions; 0 is never stored.
const (
	// OperatorReplay persists the order now if the stock and the buyer allow.
	OperatorReplay OperatorAction = 1 + iota
	// OperatorDiscard ends the order for good (its buyer told).
	OperatorDiscard
	// OperatorCreateShop adds a shop (createShop).
	OperatorCreateShop
	// OperatorUpdateShop changes a shop (updateShop).
	OperatorUpdateShop
	// OperatorCreateVoucher adds a voucher or flash sale (createVoucher).
	OperatorCreateVoucher
	// OperatorUpdateVoucher changes a voucher or its sale (updateVoucher).
	OperatorUpdateVoucher
	// OperatorTakeOffSale takes a voucher off sale (setVoucherOnSale false).
	OperatorTakeOffSale
	// OperatorPutOnSale puts it back on sale (setVoucherOnSale true).
	OperatorPutOnSale
	// OperatorRedeemOrder marks a paid order used (redeemOrder).
	OperatorRedeemOrder
)

var operatorActionNames = [...]string{
	OperatorReplay: "REPLAY", OperatorDiscard: "DISCARD",
	OperatorCreateShop: "CREATE_SHOP", OperatorUpdateShop: "UPDATE_SHOP",
	OperatorCreateVoucher: "CREATE_VOUCHER", OperatorUpdateVoucher: "UPDATE_VOUCHER",
	OperatorTakeOffSale: "TAKE_OFF_SALE", OperatorPutOnSale: "PUT_ON_SALE",
	OperatorRedeemOrder: "REDEEM_ORDER",
}

// Valid reports whether a is one of the stored values.
func (a OperatorAction) Valid() bool { return a >= OperatorReplay && a <= OperatorRedeemOrder }

// String is the GraphQL name ("REPLAY").
func (a OperatorAction) String() string {
	if !a.Valid() {
		return "OperatorAction(" + strconv.Itoa(int(a)) + ")"
	}
	return operatorActionNames[a]
}

// MarshalGQL writes the GraphQL enum value.
func (a OperatorAction) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(a.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (a *OperatorAction) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range operatorActionNames {
		if i > 0 && name == str {
			*a = OperatorAction(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not an OperatorAction", v)
}
