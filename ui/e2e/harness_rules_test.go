package e2e

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryTestRunsInParallel holds the package to what keeps it fast and
// its tests independent: every Test function calls t.Parallel() itself,
// and nothing changes this process's environment or directory (that would
// reach every test running beside it) or hands a child this process's
// environment (childEnv gives it the test's own HOME and stores). A test
// added later that forgets fails here, by name.
func TestEveryTestRunsInParallel(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			if !callsParallel(fn.Body) {
				t.Errorf("%s: %s does not call t.Parallel(); every end-to-end test runs in parallel (see harness_test.go)",
					fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
		if name == "harness_test.go" {
			continue // the one place that reads this process's environment
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case x.Name == "os" && (sel.Sel.Name == "Setenv" || sel.Sel.Name == "Unsetenv" || sel.Sel.Name == "Chdir" || sel.Sel.Name == "Environ"),
				(x.Name == "t" || x.Name == "b") && (sel.Sel.Name == "Setenv" || sel.Sel.Name == "Chdir"):
				t.Errorf("%s: %s.%s: pass the environment to the child (childEnv), never through this process",
					fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
			}
			return true
		})
	}
}

// callsParallel reports whether body calls t.Parallel() outside any
// function literal (a subtest's t.Parallel does not make its parent
// parallel).
func callsParallel(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Parallel" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "t" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
