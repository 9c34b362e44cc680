package seckill

import (
	"context"
	"math"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

type metrics struct {
	requests     *prometheus.CounterVec
	persisted    prometheus.Counter
	deadLettered *prometheus.CounterVec
	rebuilds     prometheus.Counter
	retries      prometheus.Counter
}

func newMetrics(reg prometheus.Registerer, s *Service) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_seckill_requests_total", Help: "Flash-sale attempts by result.",
		}, []string{"result"}),
		persisted: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hmdp_orders_persisted_total", Help: "Flash-sale orders written to MySQL by this instance.",
		}),
		deadLettered: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_orders_dead_lettered_total", Help: "Accepted flash-sale orders moved to a dead-letter stream, by reason.",
		}, []string{"reason"}),
		rebuilds: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hmdp_seckill_state_rebuilds_total", Help: "Flash-sale states rebuilt from MySQL after Redis lost them.",
		}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "hmdp_order_persist_retries_total", Help: "Failed attempts to persist a batch of orders (retried with backoff).",
		}),
	}
	for _, r := range []string{"ok", "out_of_stock", "already_ordered", "not_started", "ended", "rate_limited"} {
		m.requests.WithLabelValues(r)
	}
	if reg != nil {
		pending := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "hmdp_order_stream_pending",
			Help: "Accepted flash-sale orders not yet persisted (entries left in the order streams of the sales this instance consumes).",
		}, func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			n, err := s.Backlog(ctx)
			if err != nil {
				return math.NaN() // unknown, not zero
			}
			return float64(n)
		})
		reg.MustRegister(m.requests, m.persisted, m.deadLettered, m.rebuilds, m.retries, pending)
	}
	return m
}
