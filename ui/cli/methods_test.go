package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxMethods is the most methods a type of the command line may have: a
// type past it holds several jobs (the runner had 129 over 54 files).
const maxMethods = 30

// TestNoTypeHasMoreThan30Methods counts the methods of every type of
// ui/cli and its packages (production files) and fails on one past
// maxMethods. -v prints the five largest.
//
//	go test ./ui/cli -run TestNoTypeHasMoreThan30Methods -v
func TestNoTypeHasMoreThan30Methods(t *testing.T) {
	count := map[string]int{}
	files := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil {
				continue
			}
			typ := fd.Recv.List[0].Type
			if s, ok := typ.(*ast.StarExpr); ok {
				typ = s.X
			}
			if ix, ok := typ.(*ast.IndexExpr); ok {
				typ = ix.X
			}
			name := filepath.ToSlash(filepath.Join("ui/cli", filepath.Dir(path))) + "." + typ.(*ast.Ident).Name
			count[name]++
			if files[name] == nil {
				files[name] = map[string]bool{}
			}
			files[name][filepath.Base(path)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		return count[names[i]] > count[names[j]] || count[names[i]] == count[names[j]] && names[i] < names[j]
	})
	if len(names) < 10 {
		t.Fatalf("%d types with methods found: the walk is not reading the packages", len(names))
	}
	for i, n := range names {
		if i < 5 {
			t.Logf("%3d methods in %2d files  %s", count[n], len(files[n]), n)
		}
		if count[n] > maxMethods {
			t.Errorf("%s has %d methods over %d files (at most %d): it holds several jobs", n, count[n], len(files[n]), maxMethods)
		}
	}
}
