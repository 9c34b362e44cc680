package page

import (
	"encoding/base64"
	"runtime"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/apperr"
)

// FuzzAfter feeds arbitrary strings to the cursor decoder: it must never
// panic, must refuse what it cannot read with BAD_USER_INPUT on "after", and
// what it reads must encode again to a cursor with the same id.
func FuzzAfter(f *testing.F) {
	for _, c := range []Cursor{{ID: 1}, {ID: 42, Value: int64(1700000000000)}, {ID: -1, Value: "x"}, {ID: 1 << 62, Value: 3.5}} {
		f.Add(c.String())
	}
	for _, s := range []string{"", "x", "====", "gaFp", "not a cursor", "%%%", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := After(&s)
		if err != nil {
			if e, ok := apperr.As(err); !ok || e.Code != apperr.BadUserInput || e.Field != "after" {
				t.Fatalf("After(%q): %v, want BAD_USER_INPUT on after", s, err)
			}
			return
		}
		if s == "" {
			if c != nil {
				t.Fatalf("After(\"\") = %+v, want nil", c)
			}
			return
		}
		if c == nil {
			t.Fatalf("After(%q) = nil, nil", s)
		}
		if _, err := Int(c.Value); err != nil && apperr.CodeOf(err) != apperr.BadUserInput {
			t.Fatalf("Int(%#v): %v", c.Value, err)
		}
		again := Cursor{ID: c.ID}.String()
		back, err := After(&again)
		if err != nil || back.ID != c.ID {
			t.Fatalf("cursor of id %d does not decode again: %v %+v", c.ID, err, back)
		}
	})
}

// A cursor of nested map headers, each claiming 2³²-1 entries, made the
// generic msgpack decoder allocate a map of a million entries per header:
// seconds and gigabytes for a few dozen bytes. Decode refuses it at once.
func TestDecodeRefusesHostileCursors(t *testing.T) {
	nested := "\x82\xa1i\x01\xa1v"
	for range 8 {
		nested += "\xdf\xff\xff\xff\xff"
	}
	for _, raw := range []string{
		nested,
		"\x82\xa1i\x01\xa1v\xdd\xff\xff\xff\xff",     // an array
		"\x82\xa1i\x01\xa1v\xc6\xff\xff\xff\xff",     // binary
		"\x82\xa1i\x01\xa1v\xd6\xff\x00\x00\x00\x00", // an extension (time)
		"\xdf\xff\xff\xff\xff",
	} {
		s := base64.RawStdEncoding.EncodeToString([]byte(raw))
		// Bytes allocated, not time taken: a timed assertion fails on a
		// loaded machine, while the attack's signature is the allocation.
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c, err := Decode(s)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("Decode(%x) = %+v, want an error", raw, c)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
			t.Errorf("Decode(%x) allocated %d bytes", raw, n)
		}
	}
	if _, err := Decode(strings.Repeat("A", MaxCursorLen+1)); err == nil {
		t.Error("an over-long cursor decoded")
	}
	// The cursors the API makes still decode, values and all.
	for _, c := range []Cursor{{ID: 7}, {ID: 7, Value: int64(-3)}, {ID: 7, Value: 12.5}, {ID: 1<<63 - 1, Value: int64(1<<63 - 1)}} {
		got, err := Decode(c.String())
		if err != nil || got.ID != c.ID {
			t.Fatalf("Decode(%+v) = %+v, %v", c, got, err)
		}
		if c.Value != nil {
			if n, ok := c.Value.(int64); ok {
				if v, err := Int(got.Value); err != nil || v != n {
					t.Fatalf("value %v, want %v (%v)", got.Value, n, err)
				}
			} else if got.Value != c.Value {
				t.Fatalf("value %#v, want %#v", got.Value, c.Value)
			}
		}
	}
}
