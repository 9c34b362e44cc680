// Package app wires the hmdp API server: it opens MySQL and Redis (or their
// embedded stand-ins), builds the services on them, starts the background
// workers, and puts internal/edge's HTTP and websocket layers around
// internal/graphapi's handler. Configuration is internal/config; server/ is
// the thin main.
//
// The package's tests are the end-to-end suite: they start whole servers
// (one or several instances, on the embedded back ends and, when
// HMDP_TEST_MYSQL_DSN and HMDP_TEST_REDIS_ADDR are set, the real ones)
// through the harness in harness_test.go and talk to them over HTTP and
// websockets, or run the built binary. They stay here, beside the wiring they
// test, because they look into an App's connections and services (its
// Redis, its database, its clock) to arrange and check what a client cannot
// see. Unit tests of the other packages live with those packages.
package app
