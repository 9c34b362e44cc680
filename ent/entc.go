//go:build ignore

package main

import (
	"log"

	"entgo.io/contrib/entgql"
	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

// Generates the ent client with entgql's templates (pagination, field collection);
// the GraphQL schema itself is written by hand in graph/*.graphqls.
func main() {
	ex, err := entgql.NewExtension(entgql.WithConfigPath("../gqlgen.yml"))
	if err != nil {
		log.Fatalf("entgql: %v", err)
	}
	err = entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{gen.FeatureModifier, gen.FeatureExecQuery, gen.FeatureUpsert, gen.FeatureLock},
	}, entc.Extensions(ex))
	if err != nil {
		log.Fatalf("ent codegen: %v", err)
	}
}
