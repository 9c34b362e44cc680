// Command configdocs writes the configuration tables of the docs from the
// settings table in internal/config/config.go, the one place settings are
// described: every setting into docs/API.md, the newcomer ones into
// README.md. Each table sits between the lines
//
//	<!-- settings:begin … -->
//	<!-- settings:end -->
//
// and the rest of each file is left as it is. config.go's generate directive
// runs it (`make generate`); its test fails when a file differs from what it
// would write.
//
//	go run ./configdocs   (from internal/config/)
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hmdp/hmdp/internal/config"
)

// target is a file with a settings table, and how to write it.
type target struct {
	path   string // from the repository root
	render func([]config.SettingDoc) string
}

var targets = []target{
	{"docs/API.md", fullTable},
	{"README.md", newcomerTable},
}

func main() {
	root := flag.String("root", "../..", "the repository root")
	flag.Parse()
	for _, t := range targets {
		if err := write(*root, t); err != nil {
			fmt.Fprintln(os.Stderr, "configdocs:", err)
			os.Exit(1)
		}
	}
}

func write(root string, t target) error {
	name := filepath.Join(root, filepath.FromSlash(t.path))
	old, err := os.ReadFile(name) //nolint:gosec // G304: a build tool rewriting the docs it names
	if err != nil {
		return err
	}
	updated, err := splice(old, t.render(config.SettingDocs()))
	if err != nil {
		return fmt.Errorf("%s: %w", t.path, err)
	}
	if bytes.Equal(old, updated) {
		return nil
	}
	return os.WriteFile(name, updated, 0o600)
}

const (
	beginMark = "<!-- settings:begin"
	endMark   = "<!-- settings:end -->"
)

// splice replaces the lines between the begin and end marker lines of doc
// with table (which ends in a newline).
func splice(doc []byte, table string) ([]byte, error) {
	lines := strings.SplitAfter(string(doc), "\n")
	begin, end := -1, -1
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, beginMark):
			if begin >= 0 {
				return nil, errors.New("a second " + beginMark + " line")
			}
			begin = i
		case strings.TrimRight(l, "\r\n") == endMark:
			if end >= 0 {
				return nil, errors.New("a second " + endMark + " line")
			}
			end = i
		}
	}
	if begin < 0 || end < begin {
		return nil, fmt.Errorf("no %s … --> line followed by a %s line", beginMark, endMark)
	}
	var b strings.Builder
	for _, l := range lines[:begin+1] {
		b.WriteString(l)
	}
	b.WriteString(table)
	for _, l := range lines[end:] {
		b.WriteString(l)
	}
	return []byte(b.String()), nil
}

// fullTable is docs/API.md's: every setting with its flag, default, values
// and whole meaning.
func fullTable(docs []config.SettingDoc) string {
	var b strings.Builder
	b.WriteString("| variable | flag | default | values | meaning |\n|---|---|---|---|---|\n")
	for _, d := range docs {
		meaning := d.Help
		if d.More != "" {
			meaning += " " + d.More
		}
		row(&b, "`"+d.Env+"`", "`-"+d.Flag+"`", d.Default, d.Values, meaning)
	}
	return b.String()
}

// newcomerTable is README.md's: the settings a first run needs, each with
// its default, values and first sentence.
func newcomerTable(docs []config.SettingDoc) string {
	var b strings.Builder
	b.WriteString("| variable | default | values | meaning |\n|---|---|---|---|\n")
	for _, d := range docs {
		if d.Newcomer {
			row(&b, "`"+d.Env+"`", d.Default, d.Values, d.Help)
		}
	}
	return b.String()
}

// row writes one table row; a | in a cell (even in code) would end the cell.
func row(b *strings.Builder, cells ...string) {
	for _, c := range cells {
		b.WriteString("| " + strings.ReplaceAll(c, "|", `\|`) + " ")
	}
	b.WriteString("|\n")
}
