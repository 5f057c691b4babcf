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

// TestFrontDoorsStayShort: README.md and BENCHMARKS.md stay under 400
// lines (the rest of the manual is the help topics and ARCHITECTURE.md),
// the README keeps its table of contents, no cell of its tables runs past
// 200 characters, and it shows the two commands as .ci/run runs the test.
func TestFrontDoorsStayShort(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	readme, bench, ci := read("README.md"), read("BENCHMARKS.md"), read(filepath.Join(".ci", "run"))
	for name, doc := range map[string]string{"README.md": readme, "BENCHMARKS.md": bench} {
		if n := strings.Count(doc, "\n"); n >= 400 {
			t.Errorf("%s is %d lines; keep it under 400 (move the rest into a help topic or ARCHITECTURE.md)", name, n)
		}
	}
	if !strings.Contains(readme, "\n## Contents\n") {
		t.Error("README.md has no table of contents (## Contents)")
	}
	for _, line := range strings.Split(readme, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "|") {
			continue
		}
		for _, cell := range splitRow(strings.TrimSpace(line)) {
			if len([]rune(cell)) > 200 {
				t.Errorf("a README.md table cell of %d characters: %.80q…", len([]rune(cell)), cell)
			}
		}
	}
	const demo, test = "go run . demo", "go test -timeout 14m -bench . -benchtime 1x ./..."
	if !strings.Contains(readme, "\n"+demo+" ") || !strings.Contains(readme, "\n"+test+" ") {
		t.Errorf("README.md does not show the two commands %q and %q", demo, test)
	}
	if !strings.Contains(ci, "\n"+test+"\n") {
		t.Errorf(".ci/run does not run README.md's test command %q verbatim", test)
	}
}

// TestBenchmarksNameEveryGoal: every benchmark .ci/bench/goals runs (its
// goal lives in BENCHMARKS.md) is named there, by its function's name.
func TestBenchmarksNameEveryGoal(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	goals, err := os.ReadFile(filepath.Join(root, ".ci", "bench", "goals"))
	if err != nil {
		t.Fatal(err)
	}
	bench, err := os.ReadFile(filepath.Join(root, "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(goals), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		n++
		name, _, _ := strings.Cut(f[1], "/")
		if !strings.Contains(string(bench), name) {
			t.Errorf(".ci/bench/goals runs %s (%s), which BENCHMARKS.md does not name: its goal and figure belong there", name, f[0])
		}
	}
	if n < 20 {
		t.Fatalf("read %d goals lines: is .ci/bench/goals where it was?", n)
	}
}
