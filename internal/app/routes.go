package app

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hmdp/hmdp/graph"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/edge"
	"github.com/hmdp/hmdp/internal/graphapi"
	"github.com/hmdp/hmdp/internal/payment"
	"github.com/hmdp/hmdp/internal/playground"
	"github.com/hmdp/hmdp/internal/responsecache"
	webapp "github.com/hmdp/hmdp/web/app"
)

// routes is the root handler: /graphql through the edge, and the plain routes.
func (a *App) routes() http.Handler {
	mux := http.NewServeMux()
	origins := edge.OriginPolicy{Allowed: a.cfg.AllowedOrigins}
	ws := edge.Websocket{CheckOrigin: origins.Allows, Heartbeat: a.heartbeat, Admit: a.wsLimits.HoldConnection, Served: &a.sockets}
	// Outermost first: origin checks, CORS, the session, the body limit, the
	// response cache, then websockets go on their own goroutines (which
	// shutdown ends), then gqlgen.
	metrics := graphapi.NewMetrics(a.registry, a.cfg.MetricsOperations...)
	responses := responsecache.New(responsecache.Config{
		Disabled:   !a.cfg.ResponseCache,
		Roots:      a.resolver.CacheableRoots(a.cfg.NearCacheTTL > 0),
		Anonymous:  func(ctx context.Context) bool { return auth.ViewerFrom(ctx) == nil },
		Counter:    metrics.ServedCounter,
		Registerer: a.registry,
	})
	api := ws.Detach(a.shutdown, edge.TidyRequestErrors(a.graphqlServer(ws, metrics, responses)))
	// Inside the session and body limit (it needs the viewer and reads the
	// body), outside gqlgen (a kept answer skips it).
	api = responses.Handler(api)
	api = edge.LimitBodies(a.cfg.MaxBodyBytes, edge.MaxUploadBody, api)
	api = edge.WithViewer(a.auth, a.cfg.TrustedProxies, a.log, api)
	api = origins.CORS(api)
	api = origins.Websockets(api)
	mux.Handle("/graphql", api)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		rd := a.ready(r.Context())
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if rd.Status == "not ready" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		_ = json.NewEncoder(w).Encode(rd)
	})
	mux.Handle("GET /images/{name}", a.images.Handler())
	// The payment provider's signed notifies (internal/payment): outside the
	// session and CORS, as the provider calls it server to server.
	mux.Handle("POST "+payment.NotifyPath, payment.NotifyHandler(a.orders.Provider(), a.orders, a.log))
	if a.cfg.Env != "production" { // else only on HMDP_METRICS_ADDR's listener (serveMetrics)
		mux.Handle("GET /metrics", promhttp.HandlerFor(a.registry, promhttp.HandlerOpts{}))
	}
	mux.Handle(webapp.Prefix, webapp.Handler()) // the single-page app (web/app), GET/HEAD only
	if a.cfg.Playground {
		mux.Handle("/", playground.New("/graphql", a.log)) // it answers 405 to anything but GET/HEAD
	}
	return mux
}

// graphqlServer is graphapi's handler over the resolver, each operation run
// inside the websocket's live session and caps, then read-your-writes
// routing, then the response cache.
func (a *App) graphqlServer(ws edge.Websocket, metrics *graphapi.Metrics, responses *responsecache.Cache) http.Handler {
	sessions := edge.WebsocketSessions{Auth: a.auth, Limits: a.wsLimits, Log: a.log}
	ops := []graphql.OperationMiddleware{sessions.LiveSession, graph.ReportSubscriptionEnd, a.wsLimits.Operations}
	if len(a.cfg.ReplicaDSNs) > 0 && a.cfg.ReadYourWrites > 0 {
		ryw := graphapi.ReadYourWrites{Redis: a.redis.Client, Prefix: a.cfg.RedisPrefix, Window: a.cfg.ReadYourWrites, Log: a.log}
		ops = append(ops, ryw.AroundOperations) // after LiveSession: it needs the viewer
	}
	// Both do nothing for a request the cache's Handler did not take.
	ops = append(ops, responses.AroundOperations)
	return graphapi.NewServer(graphapi.Config{
		Schema:              graph.NewSchema(a.resolver),
		Websocket:           ws, // it sends the pings and keep-alives instead of gqlgen's per-connection goroutines
		WebsocketInit:       sessions.Init,
		MaxUploadBytes:      edge.MaxUploadBody,
		MaxQueryBytes:       a.cfg.MaxQueryBytes,
		MaxQueryTokens:      a.cfg.MaxQueryTokens,
		MaxFieldComparisons: a.cfg.MaxFieldComparisons,
		MaxDepth:            a.cfg.MaxDepth,
		MaxComplexity:       a.cfg.MaxComplexity,
		Introspection:       a.cfg.Introspection,
		Metrics:             metrics,
		Extensions:          []graphql.HandlerExtension{a.tracing.GraphQL()}, // nil when off
		AroundOperations:    ops,
		AroundResponses: []graphql.ResponseMiddleware{
			// Each response (each subscription event too) gets fresh loaders.
			func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
				return next(a.resolver.WithDataloaders(ctx))
			},
			responses.AroundResponses,
		},
		Log: a.log,
	})
}
