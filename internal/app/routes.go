package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/hmdp/hmdp/graph"
	"github.com/hmdp/hmdp/internal/auth"
	"github.com/hmdp/hmdp/internal/playground"
	"github.com/hmdp/hmdp/internal/respcache"
	webapp "github.com/hmdp/hmdp/web/app"
)

func (a *App) routes() http.Handler {
	mux := http.NewServeMux()
	origins := originPolicy{allowed: a.cfg.AllowedOrigins}
	ws := gorillaWebsocket{CheckOrigin: origins.allows, Heartbeat: a.heartbeat}
	// Outermost first: origin checks, CORS, the session, the body limit, the
	// response cache, then websockets go on their own goroutines (which
	// shutdown ends), then gqlgen.
	metrics := newGraphQLMetrics(a.registry)
	responses := respcache.New(respcache.Config{
		Disabled:   !a.cfg.ResponseCache,
		Roots:      a.resolver.CacheableRoots(a.cfg.NearCacheTTL > 0),
		Anonymous:  func(ctx context.Context) bool { return auth.ViewerFrom(ctx) == nil },
		Counter:    metrics.servedCounter,
		Registerer: a.registry,
	})
	api := ws.Detach(a.shutdown, tidyRequestErrors(a.graphqlServer(ws, metrics, responses)))
	// Inside the session and body limit (it needs the viewer and reads the
	// body), outside gqlgen (a kept answer skips it).
	api = responses.Handler(api)
	api = limitBodies(a.cfg.MaxBodyBytes, maxUploadBody, api)
	api = withViewer(a.auth, a.cfg.TrustedProxies, a.log, api)
	api = origins.cors(api)
	api = origins.websockets(api)
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
	mux.Handle("GET /metrics", promhttp.HandlerFor(a.registry, promhttp.HandlerOpts{}))
	mux.Handle(webapp.Prefix, webapp.Handler()) // the single-page app (web/app), GET/HEAD only
	if a.cfg.Playground {
		mux.Handle("/", playground.New("/graphql", a.log)) // it answers 405 to anything but GET/HEAD
	}
	return mux
}

func (a *App) graphqlServer(ws gorillaWebsocket, metrics *GraphQLMetrics, responses *respcache.Cache) *handler.Server {
	srv := handler.New(graph.NewSchema(a.resolver))
	srv.AddTransport(transport.Websocket{
		// gorillaWebsocket sends the pings and keep-alives (graphql-transport-ws
		// and graphql-ws) instead of gqlgen's per-connection goroutines.
		Implementation: ws,
		InitFunc:       a.websocketInit,
		InitTimeout:    10 * time.Second,
	})
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(singlePOST{}) // gqlgen's POST, refusing batches clearly
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: maxUploadBody, MaxMemory: 1 << 20})

	srv.AroundOperations(a.liveSession)
	srv.AroundOperations(graph.ReportSubscriptionEnd)
	srv.AroundOperations(a.wsLimits.operations)
	if len(a.cfg.ReplicaDSNs) > 0 && a.cfg.ReadYourWrites > 0 {
		srv.AroundOperations(a.readYourWrites) // after liveSession: it needs the viewer
	}
	// Each response (each subscription event too) gets fresh loaders.
	srv.AroundResponses(func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		return next(a.resolver.WithDataloaders(ctx))
	})
	// Both do nothing for a request the cache's Handler did not take.
	srv.AroundOperations(responses.AroundOperations)
	srv.AroundResponses(responses.AroundResponses)
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetErrorPresenter(presentError(a.log))
	srv.SetRecoverFunc(recoverPanic(a.log))
	if a.cfg.Introspection {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](1000)})
	srv.Use(DepthLimit{Max: a.cfg.MaxDepth})
	srv.Use(&ComplexityLimit{Max: a.cfg.MaxComplexity})
	srv.Use(metrics)
	return srv
}

// websocketInit authenticates a websocket client from its connection_init
// payload ("authorization" as in the HTTP header). A token that is not a live
// session refuses the connection; no token means an anonymous connection.
func (a *App) websocketInit(ctx context.Context, p transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	token := bearerToken(p.Authorization())
	if token == "" {
		token = bearerToken(p.GetString("token"))
	}
	// The ack carries no payload: echoing the init payload would send the
	// token back down the socket, into client logs and devtools.
	if token == "" {
		return ctx, nil, nil
	}
	v, err := a.auth.Authenticate(ctx, token)
	if err != nil {
		a.log.ErrorContext(ctx, "websocket init", "err", err)
		return refuse(ctx, 4500, "session store unavailable")
	}
	if v == nil {
		return refuse(ctx, 4403, "invalid or expired token")
	}
	if !a.wsLimits.holdSocket(ctx, v.UserID) {
		return refuse(ctx, closeTooManySockets, fmt.Sprintf("too many websockets for this user: at most %d", a.cfg.WSMaxSocketsPerUser))
	}
	return auth.WithViewer(a.holdSession(ctx, v), v), nil, nil
}

// refuse ends a websocket at connection_init with a close code of the
// graphql-transport-ws protocol (4403 Forbidden, 4500 internal error).
func refuse(ctx context.Context, code int, reason string) (context.Context, *transport.InitPayload, error) {
	ctx = transport.WithWebsocketCloseCode(ctx, code)
	ctx = transport.AppendCloseReason(ctx, reason)
	return ctx, nil, errors.New(reason)
}
