package main

import (
	"context"
	"errors"
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
	"github.com/hmdp/hmdp/server/playground"
)

func (a *App) routes() http.Handler {
	mux := http.NewServeMux()
	origins := originPolicy{allowed: a.cfg.AllowedOrigins}
	ws := gorillaWebsocket{CheckOrigin: origins.allows, Heartbeat: a.heartbeat}
	// Outermost first: origin checks, CORS, the session, the body limit, then
	// websockets go on their own goroutines (which shutdown ends), then gqlgen.
	var api http.Handler = ws.Detach(a.shutdown, a.graphqlServer(ws))
	api = limitBodies(a.cfg.MaxBodyBytes, maxUploadBody, api)
	api = withViewer(a.auth, a.log, api)
	api = origins.cors(api)
	api = origins.websockets(api)
	mux.Handle("/graphql", api)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := a.ready(r.Context()); err != nil {
			a.log.Warn("not ready", "err", err)
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	mux.Handle("GET /images/{name}", a.images.Handler())
	mux.Handle("GET /metrics", promhttp.HandlerFor(a.registry, promhttp.HandlerOpts{}))
	if a.cfg.Playground {
		mux.Handle("/", playground.New("/graphql", a.log)) // it answers 405 to anything but GET/HEAD
	}
	return mux
}

func (a *App) graphqlServer(ws gorillaWebsocket) *handler.Server {
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
	srv.AddTransport(transport.POST{})
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: maxUploadBody, MaxMemory: 1 << 20})

	// Each response (each subscription event too) gets fresh loaders.
	srv.AroundResponses(func(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
		return next(a.resolver.WithLoaders(ctx))
	})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetErrorPresenter(presentError(a.log))
	srv.SetRecoverFunc(recoverPanic(a.log))
	if a.cfg.Introspection {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](1000)})
	srv.Use(DepthLimit{Max: a.cfg.MaxDepth})
	srv.Use(&ComplexityLimit{Max: a.cfg.MaxComplexity})
	srv.Use(newGraphQLMetrics(a.registry))
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
	return auth.WithViewer(ctx, v), nil, nil
}

// refuse ends a websocket at connection_init with a close code of the
// graphql-transport-ws protocol (4403 Forbidden, 4500 internal error).
func refuse(ctx context.Context, code int, reason string) (context.Context, *transport.InitPayload, error) {
	ctx = transport.WithWebsocketCloseCode(ctx, code)
	ctx = transport.AppendCloseReason(ctx, reason)
	return ctx, nil, errors.New(reason)
}
