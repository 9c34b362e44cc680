package config

import (
	"strings"
	"testing"
	"time"
)

// The docs show durations and sizes as people write them, from the very
// value Load takes as the default.
func TestConfigDocsFormatDefaults(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		time.Second: "1s", 60 * time.Second: "1m", 90 * time.Second: "1m30s", 24 * time.Hour: "24h",
		90 * time.Minute: "1h30m", 0: "0s", 250 * time.Millisecond: "250ms",
	} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int64]string{65536: "64 KiB", 209715200: "200 MiB", 1536: "1536 bytes", 3 << 10: "3 KiB", 1000: "1000 bytes"} {
		if got := binarySize(n); got != want {
			t.Errorf("binarySize(%d) = %q, want %q", n, got, want)
		}
	}
	docs := map[string]SettingDoc{}
	for _, d := range SettingDocs() {
		docs[d.Env] = d
	}
	for env, want := range map[string]string{
		"HMDP_SESSION_TTL":    "`30m`",
		"HMDP_READ_TIMEOUT":   "`1m`",
		"HMDP_MAX_BODY_BYTES": "64 KiB (`65536`)",
		"HMDP_MYSQL_DSN":      "empty",
		"HMDP_SEED":           "`true` when `HMDP_MYSQL_DSN` is empty, else `false`",
	} {
		if got := docs[env].Default; got != want {
			t.Errorf("%s: default shown as %q, want %q", env, got, want)
		}
	}
}

// Every setting is described, its help is one sentence without links (it
// stands alone in README.md and -help), and its flag's usage is plain text.
func TestConfigSettingsDescribed(t *testing.T) {
	t.Parallel()
	for _, s := range settings {
		if s.help == "" || s.values == "" {
			t.Errorf("%s: help or values missing", s.env)
		}
		if strings.Contains(s.help, "](") || !strings.HasSuffix(s.help, ".") {
			t.Errorf("%s: help %q is not one sentence without links", s.env, s.help)
		}
		if s.def != "" && s.defDoc != "" {
			t.Errorf("%s: both def and defDoc: the docs would show only one", s.env)
		}
		if u := usage(s); strings.ContainsAny(u, "`*") {
			t.Errorf("%s: usage %q keeps markdown", s.env, u)
		}
	}
}
