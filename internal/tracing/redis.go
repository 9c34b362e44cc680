package tracing

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// RedisHook is a go-redis hook making a client span of each command and one
// of each pipeline (a pipeline is one round trip, however many commands it
// carries), inside a recorded trace only. scriptName names an EVALSHA's
// script from its hash (lua.NameOf); nil: the hash is not named. Arguments
// are never recorded: they hold tokens, phone numbers and codes.
// The hook made for a nil t does nothing.
func (t *Tracing) RedisHook(scriptName func(sha string) string) redis.Hook {
	return redisHook{t: t, scriptName: scriptName}
}

type redisHook struct {
	t          *Tracing
	scriptName func(string) string
}

func (redisHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h redisHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	if h.t == nil {
		return next
	}
	return func(ctx context.Context, cmd redis.Cmder) error {
		if !inTrace(ctx) || setup(cmd) {
			return next(ctx, cmd)
		}
		name := strings.ToUpper(cmd.Name())
		attrs := []attribute.KeyValue{attribute.String("db.system.name", "redis"), attribute.String("db.operation.name", name)}
		if s := h.script(cmd); s != "" {
			attrs = append(attrs, attribute.String("db.redis.script", s))
			name += " " + s
		}
		ctx, span := h.t.tracer.Start(ctx, "redis "+name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
		err := next(ctx, cmd)
		ended(span, err)
		return err
	}
}

func (h redisHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	if h.t == nil {
		return next
	}
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if !inTrace(ctx) || (len(cmds) > 0 && setup(cmds[0])) {
			return next(ctx, cmds)
		}
		// The distinct commands, in order, at most 8 of them: enough to
		// tell pipelines apart, bounded whatever the pipeline's length.
		var names []string
		for _, c := range cmds {
			n := strings.ToUpper(c.Name())
			if s := h.script(c); s != "" {
				n += " " + s
			}
			if !slices.Contains(names, n) && len(names) < 8 {
				names = append(names, n)
			}
		}
		ctx, span := h.t.tracer.Start(ctx, "redis pipeline", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
			attribute.String("db.system.name", "redis"), attribute.String("db.operation.name", "PIPELINE"),
			attribute.Int("db.operation.batch.size", len(cmds)), attribute.StringSlice("db.redis.commands", names)))
		err := next(ctx, cmds)
		if err == nil {
			for _, c := range cmds { // a pipeline's error is its first command's
				if e := c.Err(); e != nil && !errors.Is(e, redis.Nil) {
					err = e
					break
				}
			}
		}
		ended(span, err)
		return err
	}
}

// setup reports whether cmd sets up a new connection (go-redis sends these
// through the hooks, in the context of the command that needed the
// connection): part of dialling, not of the request's work.
func setup(cmd redis.Cmder) bool {
	switch strings.ToLower(cmd.Name()) {
	case "hello", "auth", "client", "select", "readonly":
		return true
	}
	return false
}

// script names the script an EVALSHA or EVALSHA_RO runs ("" for any other command).
func (h redisHook) script(cmd redis.Cmder) string {
	if h.scriptName == nil {
		return ""
	}
	switch strings.ToLower(cmd.Name()) {
	case "evalsha", "evalsha_ro":
		if args := cmd.Args(); len(args) > 1 {
			if sha, ok := args[1].(string); ok {
				return h.scriptName(sha)
			}
		}
	}
	return ""
}

// ended ends span, marking it failed by err; redis.Nil (no such key) is an
// answer, not a failure.
func ended(span trace.Span, err error) {
	if err != nil && !errors.Is(err, redis.Nil) {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}
