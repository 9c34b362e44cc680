// Package apperr defines the errors the API shows to clients and every error
// code the server puts in extensions.code. The codes are the constants of type
// Code below, each documented; Codes lists them all. No other Go file of the
// module spells a code out (TestNoBareCodes), the schema publishes them as
// enum ErrorCode (graph/errors.graphqls, checked by graph's TestErrorCodeEnum)
// and the web app's type of a code is generated from that enum. The GraphQL
// error presenter turns an *Error into extensions.code; any other error is
// internal and never shown.
package apperr

import (
	"errors"
	"fmt"
	"slices"
)

// Code is a client-visible error code: the value of extensions.code.
type Code string

// The codes, in the order of docs/API.md's table and of enum ErrorCode. Each
// one's doc comment, after "Name: ", is its description in the schema (graph's
// TestErrorCodeEnum compares them).
const (
	// Unauthenticated: a field marked @login or @admin was asked for without a
	// live session (no token, or an unknown or expired one); also an operation
	// on a websocket whose session has ended.
	Unauthenticated Code = "UNAUTHENTICATED"
	// Forbidden: an @admin field asked for by a logged-in user who is not an
	// admin, or a change of something that is not the viewer's to change
	// (deleteBlog on someone else's blog, deleteComment by anyone but the
	// comment's or the blog's author).
	Forbidden Code = "FORBIDDEN"
	// BadUserInput: an argument or input field is invalid (extensions.field
	// names it), a login failed, or a request was refused before GraphQL ran
	// (a body over the size limit, a multipart request without the preflight
	// header, a body that is not a GraphQL request).
	BadUserInput Code = "BAD_USER_INPUT"
	// NotFound: the target of a mutation (or of blogComments) does not exist
	// or is not the viewer's. Single-object queries answer null instead.
	NotFound Code = "NOT_FOUND"
	// RateLimited: a rate limit was hit; extensions.retryAfterMs says how many
	// milliseconds to wait before the next attempt can succeed.
	RateLimited Code = "RATE_LIMITED"
	// OutOfStock: seckillVoucher or seckillToken when every unit of the flash
	// sale is taken.
	OutOfStock Code = "OUT_OF_STOCK"
	// AlreadyOrdered: seckillVoucher when the viewer already holds an order for
	// the voucher (one per customer).
	AlreadyOrdered Code = "ALREADY_ORDERED"
	// SaleNotStarted: seckillVoucher or seckillToken before the sale's
	// beginTime.
	SaleNotStarted Code = "SALE_NOT_STARTED"
	// SaleEnded: seckillVoucher or seckillToken at or after the sale's endTime.
	SaleEnded Code = "SALE_ENDED"
	// Conflict: the order is not in a state the change allows (still PENDING,
	// past its pay deadline, or in another status), or the month's sign-in
	// make-ups are used up.
	Conflict Code = "CONFLICT"
	// DocumentTooLarge: the GraphQL document is over a limit checked before it
	// is validated (bytes, tokens or field comparisons); extensions.limit is the
	// limit.
	DocumentTooLarge Code = "DOCUMENT_TOO_LARGE"
	// IntrospectionDisabled: __schema or __type asked for while introspection
	// is off.
	IntrospectionDisabled Code = "INTROSPECTION_DISABLED"
	// PaymentFailed: payOrder when the payment provider could not open the
	// payment (the order stays UNPAID), or refundOrder when it did not accept
	// the refund (the order stays REFUNDING); the same call may be repeated:
	// the provider charges and pays back each payment at most once.
	PaymentFailed Code = "PAYMENT_FAILED"
	// NoPayment: refundOrder on a PAID order this server recorded no payment
	// for; nothing is asked of the payment provider and the order stays PAID.
	NoPayment Code = "NO_PAYMENT"
	// UploadQuotaExceeded: uploadImage past the bytes of live uploads each user
	// may keep (the message names the limit); nothing is stored.
	UploadQuotaExceeded Code = "UPLOAD_QUOTA_EXCEEDED"
	// ComplexityLimitExceeded: the operation's complexity is above the limit;
	// nothing ran.
	ComplexityLimitExceeded Code = "COMPLEXITY_LIMIT_EXCEEDED"
	// BatchingNotSupported: a POST body that is a JSON array of operations (a
	// batch), refused with HTTP 400; send one operation per request.
	BatchingNotSupported Code = "BATCHING_NOT_SUPPORTED"
	// Unavailable: a dependency could not confirm the change in time (Redis
	// replicas, for seckillVoucher); the change may still have happened, so read
	// before retrying. Also the answer, at once, while Redis does not answer,
	// is full or is a Cluster that is down (CLUSTERDOWN), and (HTTP 503) while
	// the session store cannot be read: then nothing was done, and
	// retryAfterMs says when to try again.
	Unavailable Code = "UNAVAILABLE"
	// Internal: anything else (a database error, a bug), shown without
	// details.
	Internal Code = "INTERNAL_SERVER_ERROR"
	// GraphQLParseFailed: the document does not parse (a code of gqlgen's
	// own).
	GraphQLParseFailed Code = "GRAPHQL_PARSE_FAILED"
	// GraphQLValidationFailed: the document does not validate against the
	// schema, or nests deeper than the depth limit (a code of gqlgen's own).
	GraphQLValidationFailed Code = "GRAPHQL_VALIDATION_FAILED"
	// PersistedQueryNotFound: an automatic persisted query's hash this
	// instance does not know; send the query with its hash (a code of gqlgen's
	// own).
	PersistedQueryNotFound Code = "PERSISTED_QUERY_NOT_FOUND"
	// TooManyOperations: only over a websocket, which already runs as many
	// operations as it may at once; extensions.max is the cap.
	TooManyOperations Code = "TOO_MANY_OPERATIONS"
	// SubscriptionClosed: only in a websocket error message that ends a
	// subscription early; extensions.reason is slow_consumer, session_ended or
	// shutdown. Subscribe again.
	SubscriptionClosed Code = "SUBSCRIPTION_CLOSED"
)

// codes is every code, in the order of the constants above.
var codes = []Code{
	Unauthenticated, Forbidden, BadUserInput, NotFound, RateLimited, OutOfStock,
	AlreadyOrdered, SaleNotStarted, SaleEnded, Conflict, DocumentTooLarge,
	IntrospectionDisabled, PaymentFailed, NoPayment, UploadQuotaExceeded,
	ComplexityLimitExceeded, BatchingNotSupported, Unavailable, Internal,
	GraphQLParseFailed, GraphQLValidationFailed, PersistedQueryNotFound,
	TooManyOperations, SubscriptionClosed,
}

// Codes returns every code the server can put in extensions.code, in the
// order they are declared (TestCodesListsEveryConstant keeps it complete).
func Codes() []Code { return slices.Clone(codes) }

// Error is a domain error safe to show to a client.
type Error struct {
	Code Code
	// Field names the offending input field for BAD_USER_INPUT.
	Field   string
	Message string
	// RetryAfterMs tells a RATE_LIMITED client when to try again.
	RetryAfterMs int64
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: %s", e.Field, e.Message)
	}
	return e.Message
}

// Is makes errors.Is(err, apperr.New(code, "")) match on the code alone.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && (t.Message == "" || t.Message == e.Message)
}

// New returns an error with a code and message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// BadInput names the field that is wrong and why.
func BadInput(field, format string, args ...any) *Error {
	return &Error{Code: BadUserInput, Field: field, Message: fmt.Sprintf(format, args...)}
}

// RateLimit says the caller must wait retryAfterMs before trying again.
func RateLimit(what string, retryAfterMs int64) *Error {
	return &Error{Code: RateLimited, Message: fmt.Sprintf("too many %s; retry in %d s", what, (retryAfterMs+999)/1000), RetryAfterMs: retryAfterMs}
}

// As returns the domain error inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// CodeOf returns err's code, Internal for any non-domain error.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return Internal
}
