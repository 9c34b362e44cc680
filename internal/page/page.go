// Package page checks Relay paging arguments and reads cursors. Cursors are
// entgql's opaque cursor (id plus one ordering value), so every connection of
// the API shares one PageInfo type.
package page

import (
	"entgo.io/contrib/entgql"

	"github.com/hmdp/hmdp/internal/apperr"
)

// Default and Max bound `first`.
const (
	Default = 10
	Max     = 50
)

// Cursor is the API's cursor type.
type Cursor = entgql.Cursor[int64]

// Info is the API's page info.
type Info = entgql.PageInfo[int64]

// First validates first (nil = Default).
func First(first *int) (int, error) {
	if first == nil {
		return Default, nil
	}
	if *first < 0 || *first > Max {
		return 0, apperr.BadInput("first", "must be 0 to %d", Max)
	}
	return *first, nil
}

// After decodes a cursor; nil when after is nil or empty.
func After(after *string) (*Cursor, error) {
	if after == nil || *after == "" {
		return nil, nil
	}
	c, err := Decode(*after)
	if err != nil {
		return nil, apperr.BadInput("after", "not a cursor of this list")
	}
	return &c, nil
}

// Int reads a cursor's ordering value as an int64 (msgpack may decode any
// integer width).
func Int(v any) (int64, error) {
	switch n := v.(type) {
	case int64:
		return n, nil
	case int:
		return int64(n), nil
	case int8:
		return int64(n), nil
	case int16:
		return int64(n), nil
	case int32:
		return int64(n), nil
	case uint8:
		return int64(n), nil
	case uint16:
		return int64(n), nil
	case uint32:
		return int64(n), nil
	case uint64:
		if n <= 1<<63-1 {
			return int64(n), nil
		}
	case float64:
		if n == float64(int64(n)) {
			return int64(n), nil
		}
	}
	return 0, apperr.BadInput("after", "not a cursor of this list")
}

// Make returns a page info for items, of which the caller fetched one more
// than first to learn whether a next page exists.
func Make(n, first int, end func(i int) Cursor) Info {
	var info Info
	if n > first {
		info.HasNextPage = true
		n = first
	}
	if n > 0 {
		e := end(n - 1)
		info.EndCursor = &e
		s := end(0)
		info.StartCursor = &s
	}
	return info
}

// Args checks a connection's first and after together.
func Args(first *int, after *string) (int, *Cursor, error) {
	n, err := First(first)
	if err != nil {
		return 0, nil, err
	}
	c, err := After(after)
	return n, c, err
}
