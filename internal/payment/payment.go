// Package payment is the boundary to the payment provider (shaped like
// Alipay / WeChat Pay): the order service opens a payment and gets back where
// the buyer pays (a pay URL), asks for refunds, and hears the outcome later in
// the provider's signed notifies to the server's notify endpoint
// (NotifyHandler). A real provider's client implements Provider; Sandbox is
// the client of the sandbox provider in this repository (cmd/paysandbox,
// package internal/payment/sandbox), and order.FakePayments the in-process
// one of tests.
package payment

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/hmdp/hmdp/ent/schema/enum"
)

// Provider is a payment provider's client. Create and Refund must be
// idempotent per trade number and refund number: the order service asks again
// after a timeout, a crash or a race, and the provider charges and pays back
// once.
type Provider interface {
	// Create opens the payment p with the provider and says where the buyer
	// pays it. The outcome comes in a notify (or at once, in Created.Settled).
	Create(ctx context.Context, p Payment) (Created, error)
	// Refund asks the provider to pay r.Amount of trade r.TradeNo back. The
	// outcome comes in a notify (or at once, in RefundAccepted.Settled).
	Refund(ctx context.Context, r Refund) (RefundAccepted, error)
	// ParseNotify reads a notify the provider sent to the notify endpoint
	// and checks its signature: an error means it is not the provider's.
	ParseNotify(r *http.Request) (Notice, error)
	// Answer tells the provider whether the notify was handled (err nil):
	// on a failure it delivers the notify again later.
	Answer(w http.ResponseWriter, err error)
}

// Payment is what the order service asks a provider to collect.
type Payment struct {
	TradeNo int64 // the attempt's id (hmdp_pay_attempt.id): the provider's out_trade_no
	OrderID int64
	Amount  int64 // fen, the order's price
	PayType enum.PayType
	Subject string
	// Expires is when the order is cancelled unless paid: the provider
	// should close the payment by then.
	Expires time.Time
}

// Created is the provider's answer to Create.
type Created struct {
	PayURL string // where the buyer pays (a page of the provider)
	// Settled, when set, is the outcome already (a provider that charges
	// synchronously); it is handled as the notify would be.
	Settled *Notice
}

// Refund is what the order service asks a provider to pay back.
type Refund struct {
	TradeNo  int64
	RefundNo int64 // idempotency key of the refund: the trade number (one full refund per trade)
	OrderID  int64
	Amount   int64 // at most what the trade took
}

// RefundAccepted is the provider's answer to Refund.
type RefundAccepted struct {
	Settled *Notice // the outcome already, when the provider refunds synchronously
}

// Kind is what a notice reports.
type Kind string

// The notice kinds.
const (
	Paid     Kind = "paid"     // the buyer paid the trade
	Closed   Kind = "closed"   // the trade was closed unpaid (the buyer cancelled on the pay page)
	Refunded Kind = "refunded" // the refund was paid back
)

// Notice is a provider's notify, verified.
type Notice struct {
	Kind     Kind   `json:"kind"`
	TradeNo  int64  `json:"trade_no,string"`
	RefundNo int64  `json:"refund_no,string,omitempty"`
	TxnID    string `json:"txn_id"` // the provider's transaction id
	Amount   int64  `json:"amount"` // fen: paid, or paid back
	// NotifyID identifies one notify (its redeliveries share it).
	NotifyID string    `json:"notify_id"`
	Time     time.Time `json:"time"`
}

// ErrBadSignature is a notify whose signature does not verify: not the provider's.
var ErrBadSignature = errors.New("payment: the notify's signature does not verify")

// Settler applies verified notices (order.Service.Settle). An error means the
// notice was not applied and the provider should deliver it again, unless it
// is a Rejected: a notice that never applies (an unknown trade, a wrong
// amount), answered as a failure all the same and logged loudly.
type Settler interface {
	Settle(ctx context.Context, n Notice) error
}

// Rejected is a verified notice that cannot be applied, ever.
type Rejected struct{ Reason string }

func (e *Rejected) Error() string { return "payment: notice rejected: " + e.Reason }
