package seckill

import (
	"context"
	"errors"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/tracing"
)

// A flash-sale order's trace (with tracing on, Config.Tracing):
//
//	seckill.admit          the attempt, in the request's trace; the stream
//	                       entry carries its traceparent (field "tp")
//	seckill.persist        the batch a consumer persisted it in: continues
//	                       the trace of its first entry that has one, and
//	                       links every entry's admission
//	  INSERT tb_voucher_order  (the SQL spans, children of the batch)
//	  seckill.orderUpdates     the persisted orders handed to orderUpdates
//
// The hop through the stream is asynchronous, often in another instance, so
// the batch cannot be a child of each admission; a batch of one order is in
// that order's trace, and the links find the others.

// traceField is the stream entry's field holding its admission's traceparent.
const traceField = "tp"

// startAdmission starts the span of one attempt; end records its outcome
// (the order id, or the refusal's code) and ends it.
func (s *Service) startAdmission(ctx context.Context, voucherID int64) (context.Context, func(int64, error)) {
	ctx, span := s.tracing.Start(ctx, "seckill.admit", trace.WithAttributes(
		attribute.Int64("hmdp.voucher.id", voucherID), attribute.String("hmdp.lua.script", "seckill_admit")))
	return ctx, func(orderID int64, err error) {
		if err == nil {
			span.SetAttributes(attribute.Int64("hmdp.order.id", orderID))
		} else {
			var ae *apperr.Error
			if errors.As(err, &ae) {
				// A refusal (sold out, rate limited) is an answer, not a fault.
				span.SetAttributes(attribute.String("hmdp.refusal", string(ae.Code)))
			} else {
				span.RecordError(err)
				span.SetStatus(codes.Error, err.Error())
			}
		}
		span.End()
	}
}

// startBatch starts the span of persisting entries (a no-op span when off).
func (s *Service) startBatch(ctx context.Context, voucherID int64, entries []entry) (context.Context, trace.Span) {
	if !s.tracing.Enabled() {
		return ctx, noop.Span{}
	}
	remotes := make([]trace.SpanContext, 0, len(entries))
	for _, e := range entries {
		if sc := tracing.SpanContextOf(e.traceparent); sc.IsValid() {
			remotes = append(remotes, sc)
		}
	}
	return s.tracing.StartLinked(ctx, "seckill.persist", remotes, trace.WithAttributes(
		attribute.Int64("hmdp.voucher.id", voucherID), attribute.Int("hmdp.orders", len(entries))))
}

// announceSpan starts the span of handing persisted orders to orderUpdates.
func (s *Service) announceSpan(ctx context.Context, ps []Persisted) (context.Context, trace.Span) {
	if !s.tracing.Enabled() {
		return ctx, noop.Span{}
	}
	ids := make([]string, 0, min(len(ps), 16))
	for _, p := range ps[:min(len(ps), 16)] {
		ids = append(ids, strconv.FormatInt(p.OrderID, 10))
	}
	return s.tracing.Start(ctx, "seckill.orderUpdates", trace.WithAttributes(
		attribute.Int("hmdp.orders", len(ps)), attribute.StringSlice("hmdp.order.ids", ids)))
}
