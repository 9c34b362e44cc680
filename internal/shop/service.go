// Package shop reads shops and shop types.
package shop

import (
	"context"
	"strings"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/shoptype"
)

// Service is the shop service.
type Service struct{ db *ent.Client }

// New returns the service.
func New(db *ent.Client) *Service { return &Service{db: db} }

// Get returns a shop, nil when absent.
func (s *Service) Get(ctx context.Context, id int64) (*ent.Shop, error) {
	sh, err := s.db.Shop.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return sh, err
}

// Type returns a shop type, nil when absent.
func (s *Service) Type(ctx context.Context, id int64) (*ent.ShopType, error) {
	t, err := s.db.ShopType.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return t, err
}

// Types returns every shop type ordered by sort (then id, for a stable order).
func (s *Service) Types(ctx context.Context) ([]*ent.ShopType, error) {
	return s.db.ShopType.Query().Order(ent.Asc(shoptype.FieldSort, shoptype.FieldID)).All(ctx)
}

// Images splits the comma-separated image column.
func Images(sh *ent.Shop) []string {
	if sh.Images == "" {
		return []string{}
	}
	return strings.Split(sh.Images, ",")
}
