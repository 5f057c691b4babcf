package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The files of the regression comparison (`bash .ci/bench-compare`, not run in
// CI: it takes minutes): the goals it runs, the baseline it compares with and
// the direction of each custom unit.
const (
	benchGoals    = ".ci/bench/goals"
	benchBaseline = ".ci/bench/baseline.txt"
	benchUnits    = ".ci/bench/units"
	benchScript   = ".ci/bench-compare"
)

// repoRoot is the module's directory: the nearest parent holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// benchFuncs lists the Benchmark functions declared in a package's directory.
func benchFuncs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`(?m)^func (Benchmark\w*)\(\w+ \*testing\.B\)`)
	found := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllSubmatch(src, -1) {
			found[string(m[1])] = true
		}
	}
	return found
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (the regression comparison's file)", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestBenchBaselineMatchesTheTree keeps the comparison honest: every goals line
// names a benchmark that exists in its package, and every benchmark the
// committed baseline holds is still declared there and still run by a goals
// line. Renaming or moving a benchmark fails here, instead of silently dropping
// out of the comparison.
func TestBenchBaselineMatchesTheTree(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	modLine := readLines(t, filepath.Join(root, "go.mod"))[0]
	module := strings.TrimSpace(strings.TrimPrefix(modLine, "module"))

	funcs := map[string]map[string]bool{} // import path -> declared benchmarks
	goals := map[string]bool{}            // "import path BenchmarkX"
	envName := regexp.MustCompile(`^[A-Z][A-Z0-9_]*=`)
	benchtime := regexp.MustCompile(`^([0-9]+x|[0-9.]+(ns|us|ms|s|m))$`)
	for i, line := range readLines(t, filepath.Join(root, benchGoals)) {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		at := func(format string, args ...any) {
			t.Errorf("%s:%d: "+format, append([]any{benchGoals, i + 1}, args...)...)
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			at("want package, benchmark, benchtime and quick (or -): %q", line)
			continue
		}
		dir := filepath.Join(root, filepath.FromSlash(f[0]))
		pkg := module
		if rel := strings.Trim(strings.TrimPrefix(f[0], "."), "/"); rel != "" {
			pkg = module + "/" + rel
		}
		if funcs[pkg] == nil {
			funcs[pkg] = benchFuncs(t, dir)
		}
		name, sub, _ := strings.Cut(f[1], "/") // BenchmarkX/REGEXP over its sub-benchmarks
		if !funcs[pkg][name] {
			at("%s declares no func %s(b *testing.B)", f[0], name)
		}
		if _, err := regexp.Compile(sub); err != nil {
			at("%s: %v", f[1], err)
		}
		if !benchtime.MatchString(f[2]) {
			at("benchtime %q is neither a count (5x) nor a duration", f[2])
		}
		if f[3] != "quick" && f[3] != "-" {
			at("the fourth field is quick or -, not %q", f[3])
		}
		for _, kv := range f[4:] {
			if rule, ok := strings.CutPrefix(kv, "ignore="); ok {
				if _, err := regexp.Compile(rule); err != nil {
					at("ignore=%s: %v", rule, err)
				}
			} else if old, ok := strings.CutPrefix(kv, "was="); ok {
				// the package's path before a move, for --against an older tree
				if !strings.HasPrefix(old, "./") || old == f[0] {
					at("was=%s: want the package's older path, ./DIR, other than %s", old, f[0])
				}
			} else if !envName.MatchString(kv) {
				at("%q is neither NAME=value, ignore=REGEXP nor was=DIR", kv)
			}
		}
		goals[pkg+" "+name] = true
	}

	result := regexp.MustCompile(`^(Benchmark[^\s/]*)\S*\s+[0-9]+\s`)
	pkg, results, reported := "", 0, map[string]bool{}
	for i, line := range readLines(t, filepath.Join(root, benchBaseline)) {
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		m := result.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("%s:%d: not a benchmark result: %q", benchBaseline, i+1, line)
			continue
		}
		results++
		name := regexp.MustCompile(`-[0-9]+$`).ReplaceAllString(m[1], "") // GOMAXPROCS
		if key := pkg + " " + name; !goals[key] && !reported[key] {
			reported[key] = true
			t.Errorf("%s:%d: %s %s is in the baseline but no %s line runs it (renamed or moved? record the baseline again)",
				benchBaseline, i+1, pkg, name, benchGoals)
		}
	}
	if results == 0 {
		t.Errorf("%s holds no benchmark results", benchBaseline)
	}

	unit := regexp.MustCompile(`^Unit \S+( [a-z]+=[a-z]+)+$`)
	for i, line := range readLines(t, filepath.Join(root, benchUnits)) {
		if strings.HasPrefix(line, "Unit ") && !unit.MatchString(line) {
			t.Errorf("%s:%d: not benchstat's unit metadata (Unit UNIT key=value): %q", benchUnits, i+1, line)
		}
	}

	if bash, err := exec.LookPath("bash"); err == nil {
		if out, err := exec.Command(bash, "-n", filepath.Join(root, benchScript)).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse: %v\n%s", benchScript, err, out)
		}
	}
}
