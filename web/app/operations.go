package webapp

import (
	"embed"
	"io/fs"
	"regexp"
	"slices"
)

// The web app's GraphQL documents: every operation it sends is written in
// one of these (TestOperationNamesCoverTheApp reads all of src/ to check).
//
//go:embed src/lib/ops.ts src/lib/upload.ts src/admin/ops.ts
var documents embed.FS

// operationDefinition finds the name of each operation defined in a document.
var operationDefinition = regexp.MustCompile(`\b(?:query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)\s*[({@]`)

// operationNames are the names OperationNames returns, read once.
var operationNames = func() []string {
	var names []string
	_ = fs.WalkDir(documents, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := documents.ReadFile(p)
		if err != nil {
			return err
		}
		names = append(names, OperationNamesIn(string(src))...)
		return nil
	})
	slices.Sort(names)
	return slices.Compact(names)
}()

// OperationNames are the names of the operations the web app sends (sorted,
// each once), read from its sources, which the binary embeds for this.
func OperationNames() []string { return slices.Clone(operationNames) }

// OperationNamesIn are the names of the operations defined in src (GraphQL
// documents, or source code holding them), in order.
func OperationNamesIn(src string) []string {
	var names []string
	for _, m := range operationDefinition.FindAllStringSubmatch(src, -1) {
		names = append(names, m[1])
	}
	return names
}
