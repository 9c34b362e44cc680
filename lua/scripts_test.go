package lua_test

import (
	"go/build"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	// Every package that resolves scripts, linked in so that its
	// package-level lua.Script values are resolved while this test binary
	// initialises (TestEveryUserIsLinked keeps the list complete).
	_ "github.com/hmdp/hmdp/internal/app" // lua.NameOf names the scripts in traces
	_ "github.com/hmdp/hmdp/internal/auth"
	_ "github.com/hmdp/hmdp/internal/feed"
	_ "github.com/hmdp/hmdp/internal/follow"
	_ "github.com/hmdp/hmdp/internal/like"
	_ "github.com/hmdp/hmdp/internal/lock"
	_ "github.com/hmdp/hmdp/internal/order"
	_ "github.com/hmdp/hmdp/internal/ratelimit"
	_ "github.com/hmdp/hmdp/internal/reconcile"
	_ "github.com/hmdp/hmdp/internal/rediscache"
	_ "github.com/hmdp/hmdp/internal/seckill"
	_ "github.com/hmdp/hmdp/internal/shop"
	"github.com/hmdp/hmdp/lua"
)

const luaPkg = "github.com/hmdp/hmdp/lua"

// atInit is what the packages above resolved while they initialised (taken
// before any test runs; tests may call lua.Script later).
var atInit = lua.Resolved()

// isInit tells whether fn (a runtime function name) is a package's
// initialisation, where package-level var declarations run.
func isInit(fn string) bool {
	rest := fn[strings.LastIndex(fn, "/")+1:]
	_, sym, ok := strings.Cut(rest, ".")
	return ok && (sym == "init" || strings.HasPrefix(sym, "init."))
}

// Every file in lua/ is resolved by some package-level value (a script
// resolved only inside a function, per call, does not count, and a script
// no package uses is dead), and every name a package resolved is a file (a
// missing one already panics while that package initialises).
func TestEveryScriptIsResolvedAtInit(t *testing.T) {
	resolved := atInit
	files := lua.Files()
	if len(files) == 0 {
		t.Fatal("no embedded .lua files")
	}
	for _, f := range files {
		name := strings.TrimSuffix(f, ".lua")
		if !slices.ContainsFunc(resolved[name], isInit) {
			t.Errorf("lua/%s: no package-level value resolves it (lua.Script(%q) in a var declaration); callers seen: %v", f, name, resolved[name])
		}
	}
	for name, fns := range resolved {
		if !slices.Contains(files, name+".lua") {
			t.Errorf("lua.Script(%q) by %v: there is no lua/%s.lua", name, fns, name)
		}
		for _, fn := range fns {
			if !isInit(fn) {
				t.Errorf("lua.Script(%q) called by %s: make it a package-level value", name, fn)
			}
		}
	}
}

// Every package of the module that imports lua (outside tests) is imported by
// this test, so TestEveryScriptIsResolvedAtInit sees its scripts.
func TestEveryUserIsLinked(t *testing.T) {
	here, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") ||
			n == "testdata" || n == "node_modules") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(p, 0)
		if err != nil {
			return nil // no Go files here (or only ignored ones)
		}
		if !slices.Contains(pkg.Imports, luaPkg) {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		imp := path.Join("github.com/hmdp/hmdp", filepath.ToSlash(rel))
		if !slices.Contains(here.XTestImports, imp) {
			t.Errorf("%s imports lua: add `_ %q` to lua/scripts_test.go's imports", rel, imp)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
