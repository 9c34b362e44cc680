package lua

import (
	"io/fs"
	"slices"
)

// Resolved returns, per script name, the functions that called Script for it
// so far (a copy).
func Resolved() map[string][]string {
	mu.Lock()
	defer mu.Unlock()
	out := make(map[string][]string, len(callers))
	for name, fns := range callers {
		out[name] = slices.Clone(fns)
	}
	return out
}

// Files returns the embedded script files' names.
func Files() []string {
	names, err := fs.Glob(files, "*.lua")
	if err != nil {
		panic(err)
	}
	return names
}
