package app

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/internal/edge"
	"github.com/hmdp/hmdp/internal/tracing"
	"github.com/hmdp/hmdp/lua"
)

// startTracing starts the tracer provider of HMDP_OTLP_ENDPOINT (nil, off,
// without one), unless the tests gave theirs.
func (a *App) startTracing(ctx context.Context, opt Options) (err error) {
	if opt.Tracing != nil {
		a.tracing = opt.Tracing
		return nil
	}
	a.tracing, err = tracing.New(ctx, tracing.Config{Endpoint: a.cfg.OTLPEndpoint, Sample: a.cfg.TraceSample,
		Service: a.cfg.TraceService, Log: a.log})
	if err != nil {
		return fmt.Errorf("HMDP_OTLP_ENDPOINT: %w", err)
	}
	a.ownTracing = a.tracing != nil
	return nil
}

// tracedEnt adds the SQL spans to the database client's options (last, so
// they wrap whatever the others installed); opts as they are when off.
func (a *App) tracedEnt(opts []ent.Option) []ent.Option {
	if !a.tracing.Enabled() {
		return opts
	}
	return append(append([]ent.Option{}, opts...), ent.WrapDriver(a.tracing.SQL()))
}

// traceRedis adds the Redis spans (a span per command, one per pipeline).
func (a *App) traceRedis() {
	if a.tracing.Enabled() {
		a.redis.Client.AddHook(a.tracing.RedisHook(lua.NameOf))
	}
}

// traceHTTP is h with a span per request, continuing the trace a trusted
// proxy's traceparent names; h itself when off.
func (a *App) traceHTTP(h http.Handler) http.Handler {
	return a.tracing.HTTP(edge.FromTrustedProxy(a.cfg.TrustedProxies), h)
}

// stopTracing sends the spans still batched, within 5 s, when New started
// the provider.
func (a *App) stopTracing() error {
	if !a.ownTracing {
		return nil
	}
	a.ownTracing = false
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return a.tracing.Shutdown(ctx)
}
