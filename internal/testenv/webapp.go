package testenv

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The web app's own GraphQL documents, read from its sources (never pasted
// into tests), so tests exercise exactly what the app sends.

var (
	webAppDocument = regexp.MustCompile(`(?m)^\s+("(?:[^"\\]|\\.)*"): typeof types\.`)
	webAppOpName   = regexp.MustCompile(`^\s*(?:query|mutation|subscription)\s+(\w+)`)
	webAppFragName = regexp.MustCompile(`^\s*fragment\s+(\w+)`)
	webAppSpread   = regexp.MustCompile(`\.\.\.\s*(\w+)`)
	webAppFirst    = regexp.MustCompile(`(\w+)Query, \{[^}]*?\bfirst: (\d+)`)
)

// WebAppDocuments reads the web app's documents as its generated client lists
// them (web/app/src/gql/gql.ts under root, the repository): its operations
// by name and its fragments by name.
func WebAppDocuments(root string) (ops, frags map[string]string, err error) {
	src, err := os.ReadFile(filepath.Join(root, "web/app/src/gql/gql.ts")) //nolint:gosec // the repository's own sources
	if err != nil {
		return nil, nil, err
	}
	ops, frags = map[string]string{}, map[string]string{}
	for _, m := range webAppDocument.FindAllStringSubmatch(string(src), -1) {
		var doc string
		if err := json.Unmarshal([]byte(m[1]), &doc); err != nil {
			return nil, nil, err
		}
		if f := webAppFragName.FindStringSubmatch(doc); f != nil {
			frags[f[1]] = doc
		} else if o := webAppOpName.FindStringSubmatch(doc); o != nil {
			ops[o[1]] = doc
		} else {
			return nil, nil, fmt.Errorf("gql.ts: a document without a name: %q", doc)
		}
	}
	if len(ops) < 20 {
		return nil, nil, fmt.Errorf("read %d operations from gql.ts", len(ops))
	}
	return ops, frags, nil
}

// WebAppOperation is the web app's operation name as it sends it: the
// operation with the fragments it spreads (directly or through others).
func WebAppOperation(root, name string) (string, error) {
	ops, frags, err := WebAppDocuments(root)
	if err != nil {
		return "", err
	}
	op, ok := ops[name]
	if !ok {
		return "", fmt.Errorf("the web app has no operation %s", name)
	}
	doc, seen := op, map[string]bool{}
	for todo := []string{op}; len(todo) > 0; {
		d := todo[0]
		todo = todo[1:]
		for _, m := range webAppSpread.FindAllStringSubmatch(d, -1) {
			if f, ok := frags[m[1]]; ok && !seen[m[1]] {
				seen[m[1]] = true
				doc += f
				todo = append(todo, f)
			}
		}
	}
	return doc, nil
}

// WebAppPageSizes is, per operation, the largest `first` the web app's code
// passes it (`query(ShopsQuery, { ..., first: 8 })`), read from its sources
// under root.
func WebAppPageSizes(root string) (map[string]int, error) {
	sizes := map[string]int{}
	err := filepath.WalkDir(filepath.Join(root, "web/app/src"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(path, "/gql/") ||
			(!strings.HasSuffix(path, ".vue") && !strings.HasSuffix(path, ".ts")) {
			return err
		}
		src, err := os.ReadFile(path) //nolint:gosec // a file of the web app's sources
		for _, m := range webAppFirst.FindAllStringSubmatch(string(src), -1) {
			n, _ := strconv.Atoi(m[2])
			sizes[m[1]] = max(sizes[m[1]], n)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(sizes) < 5 {
		return nil, fmt.Errorf("found the page sizes of %d operations in the web app: %v", len(sizes), sizes)
	}
	return sizes, nil
}
