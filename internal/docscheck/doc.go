// Package docscheck holds only a test: it reads README.md and docs/*.md and
// fails when they name what the code does not have (a heading a link points
// at, a package directory, a Lua script, an HMDP_* setting) or leave out what
// it has (a script in lua/, an error code). The settings tables are generated
// from the code (internal/config/configdocs, which checks them itself).
// Run it with go test ./internal/docscheck/.
package docscheck
