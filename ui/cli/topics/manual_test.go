package topics

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureNamesEveryPackage: ARCHITECTURE.md's map has a row for
// every package of the module (every directory holding Go files, as go list
// ./... sees them: not testdata) and none for a package that is gone, so
// the map a newcomer reads first cannot fall behind a move. The root
// package is the row `main.go`.
func TestArchitectureNamesEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	var packages []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			dir, _ := filepath.Rel(root, filepath.Dir(path))
			if dir = filepath.ToSlash(dir); dir == "." {
				dir = "main.go"
			}
			if !slices.Contains(packages, dir) {
				packages = append(packages, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(packages) < 20 || !slices.Contains(packages, "ui/cli/topics") {
		t.Fatalf("the walk found %v: is the module root %s?", packages, root)
	}
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	mapped := mapRows(string(doc))
	if len(mapped) == 0 {
		t.Fatal("ARCHITECTURE.md has no \"## The map of packages\" table")
	}
	for _, p := range packages {
		if !slices.Contains(mapped, p) {
			t.Errorf("ARCHITECTURE.md's map of packages has no row for %s: add one (what it is for, what it may import)", p)
		}
	}
	for _, m := range mapped {
		if !slices.Contains(packages, m) {
			t.Errorf("ARCHITECTURE.md's map of packages has a row for %s, which is no package of the module", m)
		}
	}
}

// mapRows are the first cells, `path`, of the table under "## The map of
// packages".
func mapRows(doc string) []string {
	_, section, ok := strings.Cut(doc, "\n## The map of packages\n")
	if !ok {
		return nil
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var out []string
	for _, line := range strings.Split(section, "\n") {
		cells := splitRow(strings.TrimSpace(line))
		if !strings.HasPrefix(line, "| `") || len(cells) < 2 {
			continue
		}
		out = append(out, strings.Trim(cells[0], "`"))
	}
	return out
}
