package enum

import (
	"fmt"
	"io"
	"strconv"
)

// ShopSort is the order of shops(typeId:) (GraphQL ShopSort); it is never
// stored. Every order ends with the shop id (ascending orders ascending,
// descending orders descending), so shops that tie keep one order across
// pages.
type ShopSort int

// The orders: by id (the default without near), nearest first (the default
// with near, and only with it), best rated, most sold, most reviewed,
// cheapest and dearest per person.
const (
	ShopSortID ShopSort = iota
	ShopSortDistance
	ShopSortScoreDesc
	ShopSortSoldDesc
	ShopSortCommentsDesc
	ShopSortPriceAsc
	ShopSortPriceDesc
)

var shopSortNames = [...]string{"ID", "DISTANCE", "SCORE_DESC", "SOLD_DESC", "COMMENTS_DESC", "PRICE_ASC", "PRICE_DESC"}

// Valid reports whether s is one of the orders.
func (s ShopSort) Valid() bool { return s >= 0 && int(s) < len(shopSortNames) }

// String is the GraphQL name ("SCORE_DESC").
func (s ShopSort) String() string {
	if !s.Valid() {
		return "ShopSort(" + strconv.Itoa(int(s)) + ")"
	}
	return shopSortNames[s]
}

// MarshalGQL writes the GraphQL enum value.
func (s ShopSort) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(s.String())) }

// UnmarshalGQL reads a GraphQL enum value.
func (s *ShopSort) UnmarshalGQL(v any) error {
	str, _ := v.(string)
	for i, name := range shopSortNames {
		if name == str {
			*s = ShopSort(i)
			return nil
		}
	}
	return fmt.Errorf("%v is not a ShopSort", v)
}
