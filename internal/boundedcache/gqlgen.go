package boundedcache

import "github.com/vektah/gqlparser/v2/ast"

// The bounds of gqlgen's two caches.
const (
	// DocumentFactor is how many bytes a parsed and validated document
	// keeps per byte of its query, about: 24 to 37 measured, for queries of
	// many fields or aliases (a comment costs nearly nothing, but is counted
	// as much). The query itself is the key, counted once more.
	DocumentFactor = 40
	// ParsedMaxBytes bounds the parsed-document cache; ParsedMaxEntryBytes
	// its entries: queries longer than about 25 KB are parsed every time.
	ParsedMaxBytes      = 32 << 20
	ParsedMaxEntryBytes = 1 << 20
	// PersistedMaxBytes bounds the persisted-query cache (APQ);
	// PersistedMaxEntryBytes its entries: a longer query is not persisted,
	// and its hash alone is answered PersistedQueryNotFound.
	PersistedMaxBytes      = 8 << 20
	PersistedMaxEntryBytes = 64 << 10
)

// DocumentCost is the cost of the parsed document of query.
func DocumentCost(query string, _ *ast.QueryDocument) int {
	return (1+DocumentFactor)*len(query) + Overhead
}

// PersistedCost is the cost of a persisted query under its hash.
func PersistedCost(hash, query string) int {
	return len(hash) + len(query) + Overhead
}

// ParsedQueries is the cache of parsed documents for gqlgen's
// handler.Server.SetQueryCache, keyed by query.
func ParsedQueries() *Cache[*ast.QueryDocument] {
	return New(Config[*ast.QueryDocument]{MaxBytes: ParsedMaxBytes, MaxEntryBytes: ParsedMaxEntryBytes, Cost: DocumentCost})
}

// PersistedQueries is the cache of gqlgen's extension.AutomaticPersistedQuery:
// queries by their SHA-256.
func PersistedQueries() *Cache[string] {
	return New(Config[string]{MaxBytes: PersistedMaxBytes, MaxEntryBytes: PersistedMaxEntryBytes, Cost: PersistedCost})
}
