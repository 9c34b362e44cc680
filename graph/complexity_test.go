package graph

import (
	"testing"

	"github.com/99designs/gqlgen/complexity"
	"github.com/vektah/gqlparser/v2"
)

func cost(t *testing.T, query string, vars map[string]any) int {
	t.Helper()
	es := NewExecutableSchema(Config{Complexity: Complexity()})
	doc, errs := gqlparser.LoadQueryWithRules(es.Schema(), query, nil)
	if errs != nil {
		t.Fatalf("%s: %v", query, errs)
	}
	return complexity.Calculate(t.Context(), es, doc.Operations[0], vars)
}

func TestListsCostTheirLength(t *testing.T) {
	for _, c := range []struct {
		query string
		vars  map[string]any
		want  int
	}{
		// 20 (the page query) + 1 + n × (edges 1 + node 1 + id 1).
		{`{ hotBlogs { edges { node { id } } } }`, nil, 20 + 1 + 10*3},
		{`{ hotBlogs(first: 50) { edges { node { id } } } }`, nil, 20 + 1 + 50*3},
		{`{ blogsByShop(shopId: "1", orderBy: MOST_LIKED, first: 4) { edges { node { id } } } }`, nil, 20 + 1 + 4*3},
		{`query($n: Int) { feed(first: $n) { edges { node { id } } } }`, map[string]any{"n": 5}, 20 + 1 + 5*3},
		{`{ shops(typeId: "1", first: 0) { edges { node { id } } } }`, nil, 20 + 1},
		// Out of range: refused by the resolver, costs as one item.
		{`{ searchShops(name: "a", first: 1000000000) { edges { node { id } } } }`, nil, 20 + 1 + 3},
		{`{ followers(userId: "1", first: -1) { edges { node { id } } } }`, nil, 20 + 1 + 3},
		// Shop.vouchers counts 10, topLikers 5; a list of strings costs 1.
		{`{ shop(id: "1") { vouchers { shop { vouchers { id } } } } }`, nil, 1 + 1 + 10*(1+1+10)},
		{`{ blog(id: "1") { images topLikers { id nickName } } }`, nil, 1 + 1 + 1 + 5*2},
		{`{ vouchers(shopId: "1") { id } shopTypes { name } }`, nil, 1 + 10 + 1 + 20},
		{`{ order(id: "1") { id } signInStatus { days } }`, nil, 20 + 2 + 20 + 2},
		{`{ commonFollows(userId: "1") { id } }`, nil, 20 + 1 + 50},
		// The operator console's lists.
		{`{ operatorAudit(first: 5) { edges { node { id } } } }`, nil, 20 + 1 + 5*3},
		{`{ shopOrders(shopId: "1") { edges { node { id } } } }`, nil, 20 + 1 + 10*3},
		{`{ deadLetters(sale: "1") { id } }`, nil, 20 + 1 + 20},
		{`{ deadLetters(sale: "1", first: 100) { id } }`, nil, 20 + 1 + 100},
		{`{ operatorVouchers(shopId: "1") { id } }`, nil, 20 + 1 + 50},
	} {
		if got := cost(t, c.query, c.vars); got != c.want {
			t.Errorf("%s: complexity %d, want %d", c.query, got, c.want)
		}
	}
}

// Nested lists multiply, and saturate instead of overflowing.
func TestNestedListsSaturate(t *testing.T) {
	q := `{ shop(id: "1") { id }`
	sel := "id"
	for range 30 {
		sel = "vouchers { shop { " + sel + " } }"
	}
	q += ` s: shop(id: "2") { ` + sel + ` } }`
	if got := cost(t, q, nil); got < 1<<40 {
		t.Fatalf("complexity %d", got)
	}
}
