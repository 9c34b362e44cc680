//go:build ignore

package main

import (
	"log"

	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

// Generates the ent client with ent's templates and ours (template/: fields
// of entities that are not columns). No GraphQL code is generated here: the
// schema is written by hand in graph/*.graphqls, and every connection is
// paged by internal/page (docs/ARCHITECTURE.md "Pagination: one mechanism").
func main() {
	err := entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{gen.FeatureModifier, gen.FeatureExecQuery, gen.FeatureUpsert, gen.FeatureLock},
	}, entc.TemplateDir("./template"))
	if err != nil {
		log.Fatalf("ent codegen: %v", err)
	}
}
