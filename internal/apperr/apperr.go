// Package apperr defines the domain errors the API shows to clients. Each carries
// one of the codes of docs/API.md; the GraphQL error presenter turns it into
// extensions.code. Any other error is internal and never shown.
package apperr

import (
	"errors"
	"fmt"
)

// Code is a client-visible error code.
type Code string

// The codes of docs/API.md.
const (
	Unauthenticated Code = "UNAUTHENTICATED"
	Forbidden       Code = "FORBIDDEN"
	BadUserInput    Code = "BAD_USER_INPUT"
	NotFound        Code = "NOT_FOUND"
	RateLimited     Code = "RATE_LIMITED"
	OutOfStock      Code = "OUT_OF_STOCK"
	AlreadyOrdered  Code = "ALREADY_ORDERED"
	SaleNotStarted  Code = "SALE_NOT_STARTED"
	SaleEnded       Code = "SALE_ENDED"
	Conflict        Code = "CONFLICT"
	// PaymentFailed: the payment provider did not complete a refund; the
	// order stays REFUNDING and the same call may be repeated.
	PaymentFailed Code = "PAYMENT_FAILED"
	Internal      Code = "INTERNAL_SERVER_ERROR"
)

// Unavailable means a dependency could not confirm the change in time (the
// change may still have happened; read before retrying).
const Unavailable Code = "UNAVAILABLE"

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
