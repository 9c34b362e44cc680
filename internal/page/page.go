// Package page is the API's one way of paging a list: a Relay connection
// paged forward by keyset. A page is read with the item after the cursor
// first and one item more than asked, so it knows whether another follows
// (Make); a cursor is the last item's sort position (its id and at most one
// ordering value), never an offset, so items added while a client pages
// cause neither repeats nor gaps. Every connection of the schema shares the
// PageInfo type (Info) and the cursor format, whatever it pages: MySQL rows
// (shops, blogs, follows, comments), a GEO set (nearby shops), a
// sorted-set inbox (the feed), or MySQL and Redis merged (myOrders).
// docs/ARCHITECTURE.md "Pagination: one mechanism" says how a new list is
// paged.
package page

import (
	"encoding/base64"
	"io"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/hmdp/hmdp/internal/apperr"
)

// Default and Max bound `first`.
const (
	Default = 10
	Max     = 50
)

// Cursor is the position of an item in its list: its id and, for a list
// not in id order, the value it is sorted by (a count, a distance, a
// score). On the wire it is the base64 (standard alphabet, unpadded) of the
// msgpack map {"i": id, "v": value}, with "v" left out when the value is
// nil or zero (cursor_test.go holds examples). This is the format entgql's
// cursor had when the API was built on it; clients keep the cursors they
// were given, so it never changes.
type Cursor struct {
	ID    int64 `msgpack:"i"`
	Value any   `msgpack:"v,omitempty"`
}

// String is the cursor as the API sends it.
func (c Cursor) String() string {
	b, _ := msgpack.Marshal(c) // an int64 and a scalar: nothing to fail
	return base64.RawStdEncoding.EncodeToString(b)
}

// MarshalGQL writes the cursor as a GraphQL String.
func (c Cursor) MarshalGQL(w io.Writer) {
	_, _ = io.WriteString(w, `"`+c.String()+`"`) // base64: nothing to escape
}

// UnmarshalGQL reads a cursor with Decode (gqlgen wants both directions of
// a type bound to a scalar; the API takes cursors as plain String
// arguments, checked by After or Decode).
func (c *Cursor) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return errNotCursor
	}
	d, err := Decode(s)
	if err != nil {
		return err
	}
	*c = d
	return nil
}

// Info is the schema's PageInfo. Only forward paging exists:
// HasPreviousPage is false unless a list sets it.
type Info struct {
	HasNextPage     bool    `json:"hasNextPage"`
	HasPreviousPage bool    `json:"hasPreviousPage"`
	StartCursor     *Cursor `json:"startCursor"`
	EndCursor       *Cursor `json:"endCursor"`
}

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
// integer width). A cursor leaves a zero value out (the encoding's
// omitempty), so a missing value is 0.
func Int(v any) (int64, error) {
	switch n := v.(type) {
	case nil:
		return 0, nil
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
