package seckill

import (
	"math"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
)

type metrics struct {
	requests     *prometheus.CounterVec
	persisted    prometheus.Counter
	deadLettered *prometheus.CounterVec
	rebuilds     prometheus.Counter
	retries      prometheus.Counter
	pending      *prometheus.GaugeVec
}

func newMetrics(reg prometheus.Registerer) *metrics {
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
	for _, r := range []string{"ok", "out_of_stock", "already_ordered", "not_started", "ended", "rate_limited", "bad_token", "not_found"} {
		m.requests.WithLabelValues(r)
	}
	// Set by the consumer loops (refreshPending), so a scrape does no I/O.
	m.pending = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "hmdp_order_stream_pending",
		Help: "Accepted flash-sale orders not yet persisted: the length of the sale's order stream, as this instance's consumer last read it (every instance reports the same shared stream: aggregate with max by voucher, then sum).",
	}, []string{"voucher"})
	if reg != nil {
		reg.MustRegister(m.requests, m.persisted, m.deadLettered, m.rebuilds, m.retries, m.pending)
	}
	return m
}

// refreshPending records the length of voucherID's stream (NaN: unknown).
func (c *consumers) refreshPending(k Keys, voucherID int64) {
	g := c.s.metrics.pending.WithLabelValues(strconv.FormatInt(voucherID, 10))
	n, err := c.s.rdb.XLen(c.hard, k.Orders).Result()
	if err != nil {
		g.Set(nanGauge)
		return
	}
	g.Set(float64(n))
}

// nanGauge is the backlog gauge's "unknown".
var nanGauge = math.NaN()
