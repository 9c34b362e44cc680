package docscheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository root, relative to this package's directory (where
// go test runs).
const root = "../.."

// doc is one markdown file, split into lines, with what the checks need.
type doc struct {
	name    string   // path from the root, slash-separated ("docs/API.md")
	lines   []string // the file's lines
	inFence []bool   // whether each line is inside (or opens/closes) a code fence
	anchors map[string]bool
}

func (d *doc) pos(i int) string { return fmt.Sprintf("%s:%d", d.name, i+1) }

var (
	fenceRe   = regexp.MustCompile("^\\s*(```|~~~)")
	headingRe = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	htmlIDRe  = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
	// A link or image target: [text](target) or [text](target "title").
	linkRe = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// Inline code spans (single backticks are enough for these docs).
	codeRe     = regexp.MustCompile("`([^`]+)`")
	internalRe = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])(internal/[A-Za-z0-9_.<>*/-]*)`)
	luaRe      = regexp.MustCompile(`(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_]+\.lua\b`)
	envRe      = regexp.MustCompile(`HMDP_[A-Z0-9_]*[A-Z0-9](_?\*)?`)
)

// readDocs reads README.md and docs/*.md.
func readDocs(t *testing.T) []*doc {
	t.Helper()
	// The web app's README is a newcomer's doc too, and README.md links into it.
	names := []string{"README.md", "web/app/README.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		rel, _ := filepath.Rel(root, m)
		names = append(names, filepath.ToSlash(rel))
	}
	var docs []*doc
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		d := &doc{name: n, lines: strings.Split(string(b), "\n"), anchors: map[string]bool{}}
		d.inFence = make([]bool, len(d.lines))
		fence := ""
		seen := map[string]int{}
		for i, l := range d.lines {
			if m := fenceRe.FindStringSubmatch(l); m != nil {
				d.inFence[i] = true
				switch fence {
				case "":
					fence = m[1]
				case m[1]:
					fence = ""
				}
				continue
			}
			if fence != "" {
				d.inFence[i] = true
				continue
			}
			if m := headingRe.FindStringSubmatch(l); m != nil {
				s := slug(m[2])
				if n := seen[s]; n > 0 {
					d.anchors[s+"-"+strconv.Itoa(n)] = true
				} else {
					d.anchors[s] = true
				}
				seen[s]++
			}
			for _, m := range htmlIDRe.FindAllStringSubmatch(l, -1) {
				d.anchors[m[1]] = true
			}
		}
		docs = append(docs, d)
	}
	return docs
}

// slug is GitHub's anchor of a heading: the rendered text lower-cased, with
// every character that is not a letter, digit, mark, '_', '-' or space
// dropped and spaces turned into hyphens.
func slug(heading string) string {
	text := regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(heading, "$1") // links: their text
	text = regexp.MustCompile(`<[^>]+>`).ReplaceAllString(text, "")                       // HTML tags
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"6.4 An instance is killed (kill -9)":                       "64-an-instance-is-killed-kill--9",
		"Errors are typed; internals stay inside":                   "errors-are-typed-internals-stay-inside",
		"3.3 Pub/Sub channels":                                      "33-pubsub-channels",
		"2.7 Request limits: depth, complexity, body size, uploads": "27-request-limits-depth-complexity-body-size-uploads",
		"`HMDP_ENV` and [API](API.md)":                              "hmdp_env-and-api",
		"缓存 击穿":                                                     "缓存-击穿",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// textLines calls f for each line outside code fences.
func (d *doc) textLines(f func(i int, line string)) {
	for i, l := range d.lines {
		if !d.inFence[i] {
			f(i, l)
		}
	}
}

// Every link to an anchor, in the same file or another markdown file of the
// repository, names a heading there; every relative link names a file or
// directory that exists.
func TestLinks(t *testing.T) {
	docs := readDocs(t)
	byName := map[string]*doc{}
	for _, d := range docs {
		byName[d.name] = d
	}
	for _, d := range docs {
		d.textLines(func(i int, line string) {
			line = codeRe.ReplaceAllString(line, "``") // links inside code are not links
			for _, m := range linkRe.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "/") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				to := d
				if file != "" {
					p := path.Join(path.Dir(d.name), file)
					if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
						t.Errorf("%s: link to %s: no file %s", d.pos(i), target, p)
						continue
					}
					to = byName[p]
				}
				if anchor == "" {
					continue
				}
				if to == nil {
					t.Errorf("%s: link to %s: anchors are checked only in README.md, web/app/README.md and docs/*.md", d.pos(i), target)
					continue
				}
				if !to.anchors[anchor] {
					t.Errorf("%s: link to %s: %s has no heading with anchor #%s", d.pos(i), target, to.name, anchor)
				}
			}
		})
	}
}

// Every internal/... path the docs name exists (placeholders such as
// internal/<service> aside).
func TestPackagePaths(t *testing.T) {
	for _, d := range readDocs(t) {
		d.textLines(func(i int, line string) {
			for _, m := range internalRe.FindAllStringSubmatch(line, -1) {
				p := strings.TrimRight(m[1], "./")
				if p == "internal" || strings.ContainsAny(p, "<>*") {
					continue
				}
				if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
					t.Errorf("%s: %s does not exist", d.pos(i), p)
				}
			}
		})
	}
}

// luaFiles lists lua/*.lua.
func luaFiles(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(root, "lua", "*.lua"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no lua/*.lua (%v)", err)
	}
	for i := range m {
		m[i] = filepath.Base(m[i])
	}
	return m
}

// Every *.lua the docs name is in lua/ (or, written with another directory,
// exists there), and every file in lua/ is a row of
// the script table of docs/ARCHITECTURE.md (its section "Lua scripts").
func TestLuaScripts(t *testing.T) {
	files := luaFiles(t)
	docs := readDocs(t)
	for _, d := range docs {
		for i, l := range d.lines {
			for _, name := range luaRe.FindAllString(l, -1) {
				dir, base := path.Split(name)
				switch dir {
				case "", "lua/":
					if !slices.Contains(files, base) {
						t.Errorf("%s: %s is not in lua/", d.pos(i), name)
					}
				default: // another Lua file, by its path (a wrk script)
					if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err != nil {
						t.Errorf("%s: %s does not exist", d.pos(i), name)
					}
				}
			}
		}
	}
	var arch *doc
	for _, d := range docs {
		if d.name == "docs/ARCHITECTURE.md" {
			arch = d
		}
	}
	if arch == nil {
		t.Fatal("no docs/ARCHITECTURE.md")
	}
	rows, at := table(arch, "Lua scripts")
	if rows == nil {
		t.Fatalf("docs/ARCHITECTURE.md: no table under a heading ending in %q", "Lua scripts")
	}
	inTable := map[string]bool{}
	for _, r := range rows {
		for _, name := range luaRe.FindAllString(r.cells[0], -1) {
			inTable[name] = true
		}
	}
	for _, f := range files {
		if !inTable[f] {
			t.Errorf("%s: the script table of this section has no row for lua/%s", arch.pos(at), f)
		}
	}
}

type row struct {
	line  int
	cells []string
}

// table returns the body rows of the first table in the section whose
// heading ends in title, and the line where that section starts.
func table(d *doc, title string) ([]row, int) {
	start, level := -1, 0
	var rows []row
	for i, l := range d.lines {
		if d.inFence[i] {
			continue
		}
		if m := headingRe.FindStringSubmatch(l); m != nil {
			if start >= 0 && len(m[1]) <= level {
				break
			}
			if start < 0 && strings.HasSuffix(m[2], title) {
				start, level = i, len(m[1])
			}
			continue
		}
		if start < 0 || !strings.HasPrefix(strings.TrimSpace(l), "|") {
			if start >= 0 && rows != nil {
				break // the table ended
			}
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if strings.Trim(cells[0], "-: ") == "" {
			continue // the delimiter row
		}
		rows = append(rows, row{i, cells})
	}
	if len(rows) > 0 {
		rows = rows[1:] // the header row
	}
	return rows, start
}

// settings reads the names of the table `var settings = []setting{{env:
// "HMDP_…", …}, …}` from internal/config/config.go's syntax tree (the package
// exports no list of names).
func settings(t *testing.T) []string {
	t.Helper()
	const file = "internal/config/config.go"
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, file), nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "settings" || len(vs.Values) != 1 {
			return true
		}
		lit, ok := vs.Values[0].(*ast.CompositeLit)
		if !ok {
			return false
		}
		for _, e := range lit.Elts {
			el, ok := e.(*ast.CompositeLit)
			if !ok {
				continue
			}
			for _, f := range el.Elts {
				kv, ok := f.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, ok := kv.Key.(*ast.Ident)
				b, isLit := kv.Value.(*ast.BasicLit)
				if !ok || key.Name != "env" || !isLit || b.Kind != token.STRING {
					continue
				}
				if v, err := strconv.Unquote(b.Value); err == nil && strings.HasPrefix(v, "HMDP_") {
					out = append(out, v)
				}
			}
		}
		return false
	})
	if len(out) == 0 {
		t.Fatalf("%s: found no `var settings = []setting{{env: \"HMDP_…\", …}}`: update this test's reader", file)
	}
	return out
}

// codeNames returns every "HMDP_…" string literal in the Go files (tests
// included) under internal/ and server/, and every HMDP_ name in the web
// app's tooling: variables that tests, benchmarks and helpers read besides
// the server's settings.
func codeNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, dir := range []string{"internal", "server"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fset := token.NewFileSet()
			var s scanner.Scanner
			s.Init(fset.AddFile(p, -1, len(src)), src, nil, 0)
			for {
				_, tok, lit := s.Scan()
				if tok == token.EOF {
					break
				}
				if tok != token.STRING {
					continue
				}
				if v, err := strconv.Unquote(lit); err == nil && strings.HasPrefix(v, "HMDP_") {
					if m := envRe.FindString(v); m != "" {
						names[m] = true
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// The web app's build and test tooling reads a few variables of its own
	// (the dev server's API, the e2e tests' binary).
	for _, glob := range []string{"web/app/*.ts", "web/app/e2e/*.ts", "web/app/*.mk"} {
		files, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(glob)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range envRe.FindAllString(string(src), -1) {
				names[m] = true
			}
		}
	}
	return names
}

// Every HMDP_* name in the docs is a setting of the server (or, for the
// variables of tests and benchmarks, read by some Go code). The settings
// tables themselves (docs/API.md's, README.md's) are generated from the
// code's, and internal/config/configdocs's test checks them.
func TestSettings(t *testing.T) {
	isSetting := map[string]bool{}
	for _, s := range settings(t) {
		isSetting[s] = true
	}
	inCode := codeNames(t)
	known := func(name string) bool {
		if prefix, ok := strings.CutSuffix(strings.TrimSuffix(name, "*"), "_"); ok && strings.HasSuffix(name, "*") {
			for n := range inCode {
				if strings.HasPrefix(n, prefix+"_") {
					return true
				}
			}
			return false
		}
		return isSetting[name] || inCode[name]
	}
	for _, d := range readDocs(t) {
		for i, l := range d.lines {
			for _, name := range envRe.FindAllString(l, -1) {
				if !known(name) {
					t.Errorf("%s: %s is neither a setting (internal/config/config.go) nor read by any Go code", d.pos(i), name)
				}
			}
		}
	}
}
