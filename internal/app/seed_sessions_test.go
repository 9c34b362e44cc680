package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
)

// seed-sessions makes sessions a server accepts, one user per phone, each
// registered as a login would; phones that exist keep their user.
func TestSeedSessions(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		cfg := testConfig(t, backend)
		ctx := context.Background()
		var tokens []string
		if backend == "real" {
			// The command itself, on back ends a server then shares.
			var out bytes.Buffer
			log := slog.New(slog.NewJSONHandler(io.Discard, nil))
			if err := SeedSessions(ctx, cfg, log, SessionSeed{Count: 40, First: 15100000000, Workers: 8}, &out); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if len(lines) != 40 || !strings.HasSuffix(lines[39], " 15100000039") {
				t.Fatalf("%d lines, last %q", len(lines), lines[len(lines)-1])
			}
			for _, l := range lines {
				tokens = append(tokens, strings.Fields(l)[0])
			}
		}
		cfg.Seed = backend != "real" // seeded above on real back ends
		ts := startServerWith(t, backend, cfg)
		if backend != "real" {
			// The embedded Redis lives in the server's process: log in there.
			for i := range 40 {
				tok, err := ts.app.auth.LoginWithoutCode(ctx, strconv.Itoa(15100000000+i))
				if err != nil {
					t.Fatal(err)
				}
				tokens = append(tokens, tok)
			}
		}
		ids := map[string]bool{}
		for _, tok := range tokens {
			var r struct{ Me struct{ ID string } }
			ts.ok(tok, `{ me { id } }`, nil, &r)
			if r.Me.ID == "" || ids[r.Me.ID] {
				t.Fatalf("token %s: user %q (seen: %v)", tok, r.Me.ID, ids[r.Me.ID])
			}
			ids[r.Me.ID] = true
		}
		// A phone that has a user is logged in as that user.
		tok, err := ts.app.auth.LoginWithoutCode(ctx, "15100000039")
		if err != nil {
			t.Fatal(err)
		}
		var r struct{ Me struct{ ID string } }
		ts.ok(tok, `{ me { id } }`, nil, &r)
		if !ids[r.Me.ID] {
			t.Fatalf("a second login made user %s", r.Me.ID)
		}
		_, err = ts.app.auth.LoginWithoutCode(ctx, "123")
		if err == nil || !strings.Contains(err.Error(), "phone") {
			t.Fatalf("bad phone: %v", err)
		}
	})
}
