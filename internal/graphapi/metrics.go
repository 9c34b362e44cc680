package graphapi

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/hmdp/hmdp/internal/apperr"
	webapp "github.com/hmdp/hmdp/web/app"
)

// Metrics counts GraphQL operations and times them, labelled by operation name.
// Names are chosen by clients, so only known names are labels: those of the
// web app's operations (webapp.OperationNames) and those configured
// (HMDP_METRICS_OPERATIONS); any other name counts as "other", so that no
// client can take the label set, nor push a real operation out of it.
type Metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	errors   *prometheus.CounterVec
	names    map[string]bool // read only
	codes    map[string]bool // read only: apperr's codes, the only error labels
}

// NewMetrics registers the operation metrics on reg, labelling the web
// app's operations and the known ones.
func NewMetrics(reg prometheus.Registerer, known ...string) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_graphql_requests_total", Help: "GraphQL operations received, by operation name.",
		}, []string{"operation"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "hmdp_graphql_duration_seconds", Help: "Time to the first response of a GraphQL operation.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"operation"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_graphql_errors_total", Help: "GraphQL errors sent to clients, by extensions.code.",
		}, []string{"code"}),
		names: map[string]bool{},
		codes: map[string]bool{},
	}
	for _, n := range slices.Concat(webapp.OperationNames(), known) {
		m.names[n] = true
	}
	for _, c := range apperr.Codes() {
		m.codes[string(c)] = true
	}
	reg.MustRegister(m.requests, m.duration, m.errors)
	return m
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
} = (*Metrics)(nil)

// ExtensionName names the extension for gqlgen.
func (*Metrics) ExtensionName() string { return "Metrics" }

// Validate accepts any schema: the metrics need nothing from it.
func (*Metrics) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation counts the operation and times it to its first response.
func (m *Metrics) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	oc := graphql.GetOperationContext(ctx)
	name := oc.OperationName
	if oc.Operation != nil {
		name = oc.Operation.Name // named in the document even if the request did not say
	}
	label := m.label(name)
	m.requests.WithLabelValues(label).Inc()
	start := time.Now()
	handler := next(ctx)
	var once sync.Once
	return func(ctx context.Context) *graphql.Response {
		resp := handler(ctx)
		once.Do(func() { m.duration.WithLabelValues(label).Observe(time.Since(start).Seconds()) })
		return resp
	}
}

// ServedCounter counts an operation answered without running it (the
// response cache): no duration, it took none of GraphQL's time.
func (m *Metrics) ServedCounter(name string) prometheus.Counter {
	return m.requests.WithLabelValues(m.label(name))
}

// countErrors counts each error present hands a client by its code: every
// error of a response goes through the presenter, parse and validation
// errors included. A code outside apperr's list (none is expected) counts as
// "other", so the label set stays bounded.
func (m *Metrics) countErrors(present graphql.ErrorPresenterFunc) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := present(ctx, err)
		code, _ := gerr.Extensions["code"].(string)
		if !m.codes[code] {
			code = "other"
		}
		m.errors.WithLabelValues(code).Inc()
		return gerr
	}
}

func (m *Metrics) label(name string) string {
	switch {
	case name == "":
		return "anonymous"
	case m.names[name]:
		return name
	}
	return "other"
}
