package page

import (
	"bytes"
	"math"
	"testing"
)

// The API's cursors, byte for byte as entgql's Cursor[int64] wrote them
// (recorded from it before it was dropped): clients hold such cursors, so
// the format must never change. A zero value is left out, like nil.
var golden = []struct {
	c    Cursor
	wire string
}{
	{Cursor{ID: 1}, "gaFp0wAAAAAAAAAB"},
	{Cursor{ID: 0}, "gaFp0wAAAAAAAAAA"},
	{Cursor{ID: -5}, "gaFp0//////////7"},
	{Cursor{ID: 42, Value: int64(1700000000123)}, "gqFp0wAAAAAAAAAqoXbTAAABi8/laHs"},
	{Cursor{ID: 7, Value: int64(3)}, "gqFp0wAAAAAAAAAHoXbTAAAAAAAAAAM"},
	{Cursor{ID: 7, Value: int64(0)}, "gaFp0wAAAAAAAAAH"},
	{Cursor{ID: 9, Value: int64(-300)}, "gqFp0wAAAAAAAAAJoXbT/////////tQ"},
	{Cursor{ID: 12, Value: 1234.5678}, "gqFp0wAAAAAAAAAMoXbLQJNKRW1c+q0"},
	{Cursor{ID: 13, Value: 0.0}, "gaFp0wAAAAAAAAAN"},
	{Cursor{ID: 1 << 60, Value: int64(math.MaxInt64)}, "gqFp0xAAAAAAAAAAoXbTf/////////8"},
	{Cursor{ID: math.MaxInt64}, "gaFp03//////////"},
	{Cursor{ID: 3, Value: "x"}, "gqFp0wAAAAAAAAADoXaheA"},
}

func TestCursorFormatIsFixed(t *testing.T) {
	for _, g := range golden {
		if got := g.c.String(); got != g.wire {
			t.Errorf("%+v: %s, want %s", g.c, got, g.wire)
		}
		var b bytes.Buffer
		g.c.MarshalGQL(&b)
		if b.String() != `"`+g.wire+`"` {
			t.Errorf("%+v: MarshalGQL wrote %s", g.c, b.String())
		}
		got, err := Decode(g.wire)
		if err != nil || got.ID != g.c.ID {
			t.Fatalf("Decode(%s) = %+v, %v", g.wire, got, err)
		}
		var back Cursor
		if err := back.UnmarshalGQL(g.wire); err != nil || back.ID != g.c.ID {
			t.Fatalf("UnmarshalGQL(%s) = %+v, %v", g.wire, back, err)
		}
		if n, ok := g.c.Value.(int64); ok {
			if v, err := Int(got.Value); err != nil || v != n {
				t.Errorf("Decode(%s): value %v, want %d (%v)", g.wire, got.Value, n, err)
			}
		}
	}
	var c Cursor
	if err := c.UnmarshalGQL(42); err == nil {
		t.Error("UnmarshalGQL of a number succeeded")
	}
}
