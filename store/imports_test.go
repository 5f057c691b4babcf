package store

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStoreImportsNothingOfTheProject: store is the ground floor. A job
// names the store methods it calls as an interface over store's record
// types (upload.Journal, matters.Receipts, access.Snapshots, audit.Mirror);
// an import of the project from here would run back up the layers.
func TestStoreImportsNothingOfTheProject(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module"))
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); p == module || strings.HasPrefix(p, module+"/") {
				t.Errorf("%s imports %s: store imports nothing of the project", name, p)
			}
		}
	}
}
