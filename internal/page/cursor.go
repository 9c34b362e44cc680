package page

import (
	"encoding/base64"
	"errors"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// MaxCursorLen bounds the cursors Decode reads. The API's cursors (an id and
// one number, as msgpack in base64) are about 30 characters.
const MaxCursorLen = 100

var errNotCursor = errors.New("not a cursor")

// Decode reads a cursor a client sent back, safely for untrusted input: the
// generic msgpack decoder (which entgql's Cursor.UnmarshalGQL used) decodes
// the value into an interface and allocates for the length a map header
// claims (a million entries per nested header), so a cursor of a few dozen
// bytes could take seconds and gigabytes. Decode reads only short cursors,
// of an id and a scalar value (number, string, bool or nil), as the API
// makes them.
func Decode(s string) (Cursor, error) {
	if len(s) > MaxCursorLen {
		return Cursor{}, errNotCursor
	}
	raw, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return Cursor{}, errNotCursor
	}
	if !flat(raw) {
		return Cursor{}, errNotCursor
	}
	var shape struct {
		ID    int64              `msgpack:"i"`
		Value msgpack.RawMessage `msgpack:"v,omitempty"` // only skipped here: no allocation for claimed lengths
	}
	if err := msgpack.Unmarshal(raw, &shape); err != nil {
		return Cursor{}, errNotCursor
	}
	c := Cursor{ID: shape.ID}
	if len(shape.Value) == 0 {
		return c, nil
	}
	if !scalar(shape.Value[0]) {
		return Cursor{}, errNotCursor
	}
	if err := msgpack.Unmarshal(shape.Value, &c.Value); err != nil {
		return Cursor{}, errNotCursor
	}
	return c, nil
}

// scalar reports whether a msgpack value starting with code c is a number,
// string, bool or nil (not a map, array, binary or extension).
func scalar(c byte) bool {
	if msgpcode.IsFixedNum(c) || msgpcode.IsFixedString(c) {
		return true
	}
	switch c {
	case msgpcode.Nil, msgpcode.False, msgpcode.True,
		msgpcode.Uint8, msgpcode.Uint16, msgpcode.Uint32, msgpcode.Uint64,
		msgpcode.Int8, msgpcode.Int16, msgpcode.Int32, msgpcode.Int64,
		msgpcode.Float, msgpcode.Double,
		msgpcode.Str8, msgpcode.Str16, msgpcode.Str32:
		return true
	}
	return false
}

// flat reports whether raw is a msgpack map of at most two entries, each a
// short string key and a scalar value, with every length inside raw. The
// msgpack decoder allocates up to a megabyte for a claimed length before it
// finds the bytes missing; checking the claims first keeps a hostile cursor
// from costing more than its own size.
func flat(raw []byte) bool {
	if len(raw) == 0 || raw[0] < 0x80 || raw[0] > 0x82 { // fixmap of 0-2 entries
		return false
	}
	at := 1
	for range int(raw[0] & 0x0f) {
		for _, key := range []bool{true, false} {
			if at >= len(raw) {
				return false
			}
			n := scalarLen(raw[at:])
			if n <= 0 || (key && !msgpcode.IsFixedString(raw[at])) {
				return false
			}
			at += n
		}
	}
	return at == len(raw)
}

// scalarLen is the encoded length of the scalar at the start of b, or 0 when
// b does not start with a whole one.
func scalarLen(b []byte) int {
	c := b[0]
	n := 0
	switch {
	case msgpcode.IsFixedNum(c), c == msgpcode.Nil, c == msgpcode.False, c == msgpcode.True:
		n = 1
	case msgpcode.IsFixedString(c):
		n = 1 + int(c&0x1f)
	case c == msgpcode.Uint8, c == msgpcode.Int8:
		n = 2
	case c == msgpcode.Uint16, c == msgpcode.Int16:
		n = 3
	case c == msgpcode.Uint32, c == msgpcode.Int32, c == msgpcode.Float:
		n = 5
	case c == msgpcode.Uint64, c == msgpcode.Int64, c == msgpcode.Double:
		n = 9
	case c == msgpcode.Str8 && len(b) >= 2:
		n = 2 + int(b[1])
	}
	if n > len(b) {
		return 0
	}
	return n
}
