package api

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// terminalLibraries are what draws or reads a terminal: the console's and
// serve's business, never the service's or a job's.
var terminalLibraries = []string{
	"github.com/charmbracelet/bubbletea",
	"github.com/charmbracelet/bubbles",
	"github.com/charmbracelet/lipgloss",
	"github.com/charmbracelet/wish",
	"github.com/charmbracelet/x/term",
	"golang.org/x/term",
}

// TestAPIImportsNoUIOrTerminal: api and its jobs (api/...) sit below ui/:
// the command line, the console and serve call them and draw what they
// return. An import of ui/ from here would climb back up the layers, and a
// terminal library would tie a job to one way of showing it. Test files
// are held to it too: none needs either.
func TestAPIImportsNoUIOrTerminal(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	ui := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module")) + "/ui"
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		files++
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if p == ui || strings.HasPrefix(p, ui+"/") {
				t.Errorf("api/%s imports %s: api is below ui/ and imports none of it", filepath.ToSlash(path), p)
			}
			for _, lib := range terminalLibraries {
				if p == lib || strings.HasPrefix(p, lib+"/") {
					t.Errorf("api/%s imports the terminal library %s: a job returns values, ui/ draws them", filepath.ToSlash(path), p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files under api/; the walk is not reading the tree", files)
	}
}
