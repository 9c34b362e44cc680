// Package ent is the database client entc generates from ent/schema; this file
// is its only hand-written part.
package ent

import (
	"context"

	"entgo.io/ent/dialect"
)

// TraceSQL passes every statement the client runs, with the context it runs
// in, to fn (tests count the statements of one request, telling them from
// background work by the context). Hand-written: entc leaves this file alone.
func TraceSQL(fn func(ctx context.Context, args ...any)) Option {
	return func(c *config) { c.driver = dialect.DebugWithContext(c.driver, fn) }
}

// WrapDriver decorates the client's driver with wrap (internal/tracing's SQL
// spans). Options apply in order: what is given after it wraps it in turn.
func WrapDriver(wrap func(dialect.Driver) dialect.Driver) Option {
	return func(c *config) { c.driver = wrap(c.driver) }
}
