package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// SettingDoc is one setting as the docs show it. internal/config/configdocs
// writes the configuration tables of docs/API.md and README.md from
// SettingDocs (`make generate`), and its test fails when they differ.
type SettingDoc struct {
	Env, Flag string
	// Default is the default for people (markdown): a duration as `30m`, a
	// size as 64 KiB (`65536`), "empty", or how other settings decide it.
	Default string
	// Values says which values are accepted (markdown).
	Values string
	// Help is one sentence without links; More is the rest of the meaning,
	// its links relative to docs/.
	Help, More string
	// Newcomer marks the few settings a first run needs.
	Newcomer bool
}

// SettingDocs describes every setting, in the order Load reads them.
// It panics on a default its kind cannot read, which the tests reach.
func SettingDocs() []SettingDoc {
	out := make([]SettingDoc, len(settings))
	for i, s := range settings {
		out[i] = SettingDoc{Env: s.env, Flag: s.flag, Default: s.defaultDoc(), Values: s.values,
			Help: s.help, More: s.more, Newcomer: s.newcomer}
	}
	return out
}

// defaultDoc is the setting's default as the docs show it.
func (s setting) defaultDoc() string {
	switch {
	case s.defDoc != "":
		return s.defDoc
	case s.def == "":
		return "empty"
	}
	switch s.kind {
	case kindDuration:
		d, err := time.ParseDuration(s.def)
		if err != nil {
			panic(fmt.Sprintf("%s: default %q is not a duration", s.env, s.def))
		}
		return "`" + shortDuration(d) + "`"
	case kindBytes:
		n, err := strconv.ParseInt(s.def, 10, 64)
		if err != nil {
			panic(fmt.Sprintf("%s: default %q is not a number of bytes", s.env, s.def))
		}
		return binarySize(n) + " (`" + s.def + "`)"
	default: // kindText, kindBool, kindInt
		return "`" + s.def + "`"
	}
}

// shortDuration is d without the zero units time.Duration.String keeps:
// 1m rather than 1m0s, 24h rather than 24h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// binarySize is n bytes in the largest of MiB and KiB that divides it.
func binarySize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// usage is the flag's usage line: the help sentence without markdown, and
// the variable it mirrors.
func usage(s setting) string {
	return strings.NewReplacer("`", "", "*", "").Replace(s.help) + " (" + s.env + ")"
}
