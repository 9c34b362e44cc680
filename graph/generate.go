package graph

// The one chain that makes all generated code (`make generate` runs
// `go generate ./...`): the ent client, then gqlgen (graph/generated.go,
// graph/model, resolver stubs), then schema.graphql, then the typed client
// internal/gqlclient (genqlient, from schema.graphql).
//go:generate go run -C ../ent entc.go
//go:generate go tool gqlgen generate
//go:generate go run ./printschema -o ../schema.graphql
//go:generate go tool genqlient ../internal/gqlclient/genqlient.yaml
