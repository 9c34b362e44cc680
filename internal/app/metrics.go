package app

import (
	"context"
	"regexp"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// newRegistry returns the server's own registry (not the global one, so tests
// can run several servers in one process), with Go and process metrics.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// GraphQLMetrics counts operations and times them, labelled by operation name.
// Names are chosen by clients, so only well-formed names are used, and only the
// first maxOperationNames of them; the rest count as "other".
type GraphQLMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	mu       sync.Mutex
	names    map[string]bool
}

const maxOperationNames = 200

var operationName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

func newGraphQLMetrics(reg prometheus.Registerer) *GraphQLMetrics {
	m := &GraphQLMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hmdp_graphql_requests_total", Help: "GraphQL operations received, by operation name.",
		}, []string{"operation"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "hmdp_graphql_duration_seconds", Help: "Time to the first response of a GraphQL operation.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"operation"}),
		names: map[string]bool{},
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationInterceptor
} = (*GraphQLMetrics)(nil)

// ExtensionName names the extension for gqlgen.
func (*GraphQLMetrics) ExtensionName() string { return "Metrics" }

// Validate accepts any schema: the metrics need nothing from it.
func (*GraphQLMetrics) Validate(graphql.ExecutableSchema) error { return nil }

// InterceptOperation counts the operation and times it to its first response.
func (m *GraphQLMetrics) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
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

// servedCounter counts an operation answered without running it (the
// response cache): no duration, it took none of GraphQL's time.
func (m *GraphQLMetrics) servedCounter(name string) prometheus.Counter {
	return m.requests.WithLabelValues(m.label(name))
}

func (m *GraphQLMetrics) label(name string) string {
	if name == "" {
		return "anonymous"
	}
	if !operationName.MatchString(name) {
		return "other"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.names[name] {
		if len(m.names) >= maxOperationNames {
			return "other"
		}
		m.names[name] = true
	}
	return name
}
