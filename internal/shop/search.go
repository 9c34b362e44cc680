package shop

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mozillazg/go-pinyin"

	"github.com/hmdp/hmdp/ent"
	"github.com/hmdp/hmdp/ent/predicate"
	entshop "github.com/hmdp/hmdp/ent/shop"
	"github.com/hmdp/hmdp/ent/shopsearch"
	"github.com/hmdp/hmdp/internal/apperr"
	"github.com/hmdp/hmdp/internal/database"
	"github.com/hmdp/hmdp/internal/page"
	"github.com/hmdp/hmdp/internal/ratelimit"
)

// Limits of a search (docs/API.md): the words of one query, and its length.
const (
	MaxSearchWords = 5
	MaxSearchRunes = 64
)

// DefaultSearchLimit is how many searches one client address may make: a
// search may read the whole of hmdp_shop_search, so it is the one shop read
// an anonymous client could make expensive by repeating it.
var DefaultSearchLimit = ratelimit.Limit{Events: 120, Per: time.Minute}

// Search pages the shops that match every word of query (split at spaces)
// in id order. A word matches a shop whose name, area or address contains
// it, ignoring case, or the pinyin of whose name or area contains it, in full
// ("haidilao") or as initials ("hdl"). % and _ match themselves.
//
// A word may sit anywhere in a text, so no index can find it: the query reads
// hmdp_shop_search in id order until it has first+1 matches, at worst the
// whole table, whose size only admins (createShop) decide.
//
// client is the caller's address: with a Limiter, each address may search
// SearchLimit times (checked after the arguments, before MySQL).
func (s *Service) Search(ctx context.Context, query, client string, first *int, after *string) (*Page, error) {
	words, err := searchWords(query)
	if err != nil {
		return nil, err
	}
	n, err := pageSize(first)
	if err != nil {
		return nil, err
	}
	cur, err := decodeCursor(after)
	if err != nil {
		return nil, err
	}
	if s.limiter != nil && client != "" {
		lim, err := s.limiter.Allow(ctx, "shop-search:addr:"+client, s.searches)
		if err != nil {
			return nil, err
		}
		if !lim.Allowed {
			return nil, apperr.RateLimit("searches", lim.RetryAfter.Milliseconds())
		}
	}
	preds := make([]predicate.ShopSearch, 0, len(words)+1)
	for _, w := range words {
		preds = append(preds, shopsearch.TermsContains(w))
	}
	if cur != nil {
		if cur.Value != nil {
			return nil, apperr.BadInput("after", "not a cursor of this list")
		}
		preds = append(preds, shopsearch.IDGT(cur.ID))
	}
	ctx = database.LagTolerant(ctx)
	ids, err := s.db.ShopSearch.Query().Where(preds...).Order(ent.Asc(shopsearch.FieldID)).Limit(n + 1).IDs(ctx)
	if err != nil {
		return nil, err
	}
	p := &Page{Edges: []Edge{}, Info: page.Make(len(ids), n, func(i int) page.Cursor { return page.Cursor{ID: ids[i]} })}
	ids = ids[:min(n, len(ids))]
	rows, err := s.db.Shop.Query().Where(entshop.IDIn(ids...)).Order(ent.Asc(entshop.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, sh := range rows {
		p.Edges = append(p.Edges, Edge{Node: sh, Cursor: page.Cursor{ID: sh.ID}})
	}
	return p, nil
}

// searchWords splits a query into its lower-cased words, or names the field
// that breaks a limit.
func searchWords(query string) ([]string, error) {
	if utf8.RuneCountInString(query) > MaxSearchRunes {
		return nil, apperr.BadInput("name", "must be at most %d characters", MaxSearchRunes)
	}
	words := strings.Fields(strings.ToLower(query))
	switch {
	case len(words) == 0:
		return nil, apperr.BadInput("name", "must not be empty")
	case len(words) > MaxSearchWords:
		return nil, apperr.BadInput("name", "at most %d words", MaxSearchWords)
	}
	return words, nil
}

// searchTerms are the texts a shop is found by, one per line (a word has no
// line break, so it never matches across two texts).
func searchTerms(sh *ent.Shop) string {
	name, area := strings.ToLower(sh.Name), strings.ToLower(sh.Area)
	full, initials := pinyinOf(name)
	areaFull, areaInitials := pinyinOf(area)
	return strings.Join([]string{name, area, strings.ToLower(sh.Address), full, initials, areaFull, areaInitials}, "\n")
}

// pinyinOf is the pinyin of the Chinese characters of s, without tones or
// spaces, in full and as initials; other characters are left out (s itself
// is searched as well).
func pinyinOf(s string) (full, initials string) {
	a := pinyin.NewArgs()
	full = strings.Join(pinyin.LazyPinyin(s, a), "")
	a.Style = pinyin.FirstLetter
	initials = strings.Join(pinyin.LazyPinyin(s, a), "")
	return full, initials
}

// indexShop writes shop id's search row in tx, the transaction that wrote
// the shop: the shop is read back locked, so of two writes of one shop the
// later one's row wins.
func indexShop(ctx context.Context, tx *ent.Tx, id int64) error {
	sh, err := tx.Shop.Query().Where(entshop.ID(id), database.ForUpdate).Only(ctx)
	if err != nil {
		return err
	}
	return tx.ShopSearch.Create().SetID(id).SetTerms(searchTerms(sh)).
		OnConflictColumns(shopsearch.FieldID).UpdateNewValues().Exec(ctx)
}

// indexAll writes the search rows that are missing or out of date: those of
// shops written by other means than this service (hmdp.sql, the seed, an
// operator's SQL), and every row after the pinyin rules change. Run at Start;
// instances starting together write the same rows.
func (s *Service) indexAll(ctx context.Context) error {
	const batch = 500
	var after int64
	for {
		shops, err := s.db.Shop.Query().Where(entshop.IDGT(after)).Order(ent.Asc(entshop.FieldID)).Limit(batch).All(ctx)
		if err != nil || len(shops) == 0 {
			return err
		}
		ids := make([]int64, len(shops))
		for i, sh := range shops {
			ids[i] = sh.ID
		}
		have, err := s.db.ShopSearch.Query().Where(shopsearch.IDIn(ids...)).All(ctx)
		if err != nil {
			return err
		}
		terms := make(map[int64]string, len(have))
		for _, r := range have {
			terms[r.ID] = r.Terms
		}
		var rows []*ent.ShopSearchCreate
		for _, sh := range shops {
			if t := searchTerms(sh); terms[sh.ID] != t {
				rows = append(rows, s.db.ShopSearch.Create().SetID(sh.ID).SetTerms(t))
			}
		}
		if len(rows) > 0 {
			if err := s.db.ShopSearch.CreateBulk(rows...).OnConflictColumns(shopsearch.FieldID).UpdateNewValues().Exec(ctx); err != nil {
				return err
			}
		}
		after = ids[len(ids)-1]
	}
}
