// Package edge is what a request meets before GraphQL runs: the origin
// allow-list and CORS, the client's address behind trusted proxies, the
// session lookup, body and upload limits, tidy answers to requests gqlgen
// cannot read, and the websocket transport (upgrade on its own goroutine,
// heartbeats, per-instance caps, and sessions checked on every operation).
// internal/app puts these in order around internal/graphapi's handler.
package edge
