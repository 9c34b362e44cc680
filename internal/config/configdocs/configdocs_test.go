package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hmdp/hmdp/internal/config"
)

// The committed tables are what configdocs writes: a setting changed in
// internal/config/config.go without `make generate` fails here, as does a table
// edited by hand.
func TestTablesAreGenerated(t *testing.T) {
	for _, tg := range targets {
		name := filepath.Join("..", "..", "..", filepath.FromSlash(tg.path))
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := splice(got, tg.render(config.SettingDocs()))
		if err != nil {
			t.Fatalf("%s: %v", tg.path, err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: the settings table differs from internal/config/config.go's: run make generate (or go generate ./internal/config/)\n%s",
				tg.path, firstDiff(string(got), string(want)))
		}
	}
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n  file:      " + x + "\n  generated: " + y
		}
	}
	return ""
}

// splice replaces what lies between the markers and nothing else, and
// refuses a file without them or with two tables.
func TestSplice(t *testing.T) {
	doc := "# x\n\ntext\n<!-- settings:begin note -->\nold\nrows\n<!-- settings:end -->\nafter\n"
	got, err := splice([]byte(doc), "new\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# x\n\ntext\n<!-- settings:begin note -->\nnew\n<!-- settings:end -->\nafter\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, bad := range []string{
		"no markers\n",
		"<!-- settings:end -->\n<!-- settings:begin -->\n",
		"<!-- settings:begin -->\n<!-- settings:end -->\n<!-- settings:begin -->\n<!-- settings:end -->\n",
	} {
		if _, err := splice([]byte(bad), "t\n"); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A | in a cell is escaped, so code such as {result="hit"|"pass"} stays in
// its column.
func TestRowEscapesPipes(t *testing.T) {
	var b strings.Builder
	row(&b, "`a|b`", "c")
	if got, want := b.String(), "| `a\\|b` | c |\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
