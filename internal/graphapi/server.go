// Package graphapi is the GraphQL endpoint: gqlgen's handler over the
// schema, with this server's transports (a POST that refuses batches), its
// limits on what a document may cost (size, validation work, depth,
// complexity), the introspection switch, the operation metrics, the error
// presenter that keeps internals inside, and read-your-writes routing. The
// HTTP and websocket edge around it is internal/edge; internal/app wires the
// two.
package graphapi

import (
	"context"
	"log/slog"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"

	"github.com/hmdp/hmdp/internal/boundedcache"
)

// Config is what NewServer builds the handler from.
type Config struct {
	Schema graphql.ExecutableSchema
	// Websocket is the websocket connection (internal/edge's: it upgrades,
	// sends the heartbeats and closes with the server's reason).
	Websocket transport.WebsocketImplementation
	// WebsocketInit authenticates a websocket from its connection_init payload.
	WebsocketInit transport.WebsocketInitFunc
	// MaxUploadBytes bounds a multipart (upload) request.
	MaxUploadBytes int64
	// MaxQueryBytes, MaxQueryTokens and MaxFieldComparisons bound a document
	// before validation; MaxDepth and MaxComplexity an operation after it.
	MaxQueryBytes, MaxQueryTokens, MaxFieldComparisons int
	MaxDepth, MaxComplexity                            int
	Introspection                                      bool
	Metrics                                            *Metrics
	// Extensions run outermost, around everything below (the tracing
	// extension: its operation span then covers all the operation's work);
	// nil entries are skipped.
	Extensions []graphql.HandlerExtension
	// AroundOperations and AroundResponses run in this order, outermost
	// first, around the limits and the metrics.
	AroundOperations []graphql.OperationMiddleware
	AroundResponses  []graphql.ResponseMiddleware
	Log              *slog.Logger
}

// NewServer is gqlgen's handler with c's transports and extensions.
func NewServer(c Config) *handler.Server {
	srv := handler.New(c.Schema)
	srv.AddTransport(transport.Websocket{
		Implementation: c.Websocket,
		InitFunc:       c.WebsocketInit,
		InitTimeout:    10 * time.Second,
	})
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(singlePOST{}) // gqlgen's POST, refusing batches clearly
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: c.MaxUploadBytes, MaxMemory: 1 << 20})

	for _, e := range c.Extensions {
		if e != nil {
			srv.Use(e)
		}
	}
	for _, f := range c.AroundOperations {
		srv.AroundOperations(f)
	}
	for _, f := range c.AroundResponses {
		srv.AroundResponses(f)
	}
	queries := boundedcache.ParsedQueries() // bounded by bytes: the keys are whole queries
	srv.SetQueryCache(queries)
	srv.SetParserTokenLimit(c.MaxQueryTokens)  // documentLimit counts first; this is gqlgen's own stop
	srv.SetDisableSuggestion(!c.Introspection) // "Did you mean" would tell the schema that introspection hides
	srv.SetErrorPresenter(c.Metrics.countErrors(presentError(c.Log)))
	srv.SetRecoverFunc(recoverPanic(c.Log))
	if c.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		srv.Use(introspectionOff{})
	}
	// Before the persisted-query extension, so only documents within the
	// limits are ever registered (a hash-only request brings no text to check).
	srv.Use(documentLimit{
		MaxBytes: c.MaxQueryBytes, MaxTokens: c.MaxQueryTokens, MaxWork: c.MaxFieldComparisons,
		Known: func(ctx context.Context, q string) bool { _, ok := queries.Get(ctx, q); return ok },
	})
	srv.Use(extension.AutomaticPersistedQuery{Cache: boundedcache.PersistedQueries()})
	srv.Use(depthLimit{Max: c.MaxDepth})
	srv.Use(&complexityLimit{Max: c.MaxComplexity})
	srv.Use(c.Metrics)
	return srv
}
