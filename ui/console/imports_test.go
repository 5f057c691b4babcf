package console

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// notViews are the packages under ui/ that are not a view: the floors the
// views stand on (page, keys, widgets, sanitize, csvsafe, clipboard,
// termquery, accesstask: the access change flow two views offer), the root model (app), the assembler (console, this package),
// the command line (cli), the SSH hub (serve), the library-log router
// the console and the commands share (liblog), the end-to-end tests
// (e2e). Every other package under ui/ is a view (a page of the console),
// so a new one is held to the views' rule without anyone listing it here.
var notViews = []string{"accesstask", "app", "cli", "clipboard", "console", "csvsafe", "e2e", "keys", "liblog", "page", "sanitize", "serve", "termquery", "widgets"}

// consoleOnly are the console's own floors, which the command line
// (ui/cli and its packages) does not import either.
var consoleOnly = []string{"app", "page", "widgets"}

// TestViewsImportNoView: a view reaches another through a message the
// root routes (page.Open, with the record it holds), never by importing
// it, and the command line imports none, nor ui/app, ui/page or
// ui/widgets: only the assembler (ui/console) knows the views, and the
// rules several of them share (purge windows, finding or deleting a
// project, project names, the recycle bin's filter) live in their jobs
// below ui/. Test files are not held to it (a view's test may assemble a
// root).
func TestViewsImportNoView(t *testing.T) {
	module := moduleOf(t)
	imports := productionImports(t, "..") // "upload" -> ["github.com/…/ui/page", …]
	viewOf := func(imp string) string {
		rest, ok := strings.CutPrefix(imp, module+"/ui/")
		if !ok {
			return ""
		}
		top, _, _ := strings.Cut(rest, "/")
		if slices.Contains(notViews, top) {
			return ""
		}
		return top
	}
	views := 0
	for pkg, imps := range imports {
		top, _, _ := strings.Cut(pkg, "/")
		isView := !slices.Contains(notViews, top)
		if isView {
			views++
		}
		if !isView && top != "cli" {
			continue
		}
		for _, imp := range imps {
			if v := viewOf(imp); v != "" && v != top {
				who := "the view ui/" + pkg
				if !isView {
					who = "the command line (ui/" + pkg + ")"
				}
				t.Errorf("%s imports the view ui/%s (%s): views open views with page.Open, and a rule two places share belongs in its job below ui/", who, v, imp)
			}
			if rest, ok := strings.CutPrefix(imp, module+"/ui/"); !isView && ok && slices.Contains(consoleOnly, rest) {
				t.Errorf("the command line (ui/%s) imports ui/%s: it launches the console through ui/console and prints through ui/cli/printer; what both need lives below ui/app (api/account's saved views, ui/csvsafe)", pkg, rest)
			}
		}
	}
	if views < 8 { // access, audit, filestatus, matters, project, projects, recyclebin, upload
		t.Fatalf("found %d views under ui/; the walk is not reading the tree", views)
	}
}

// productionImports maps each package directory under root (as a path
// relative to it, "upload", "page/pagetest") to the imports of its
// non-test files.
func productionImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); !slices.Contains(out[rel], p) {
				out[rel] = append(out[rel], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func moduleOf(t *testing.T) string {
	t.Helper()
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module"))
}

// TestCommandsImportNoCommand: a command package (ui/cli/<noun>cmd) does
// not import another. What two nouns share lives in a package named for it
// beside them (the printer, the factory, cmdutil, a write's audit evidence)
// or in its job below ui/, so a noun can be read, moved or removed alone.
// matterscmd and uploadcmd imported auditcmd for the evidence of their
// receipts until it had a package of its own.
func TestCommandsImportNoCommand(t *testing.T) {
	module := moduleOf(t)
	isCommand := func(pkg string) bool {
		rest, ok := strings.CutPrefix(pkg, "cli/")
		return ok && !strings.Contains(rest, "/") && strings.HasSuffix(rest, "cmd")
	}
	commands := 0
	for pkg, imps := range productionImports(t, "..") {
		if !isCommand(pkg) {
			continue
		}
		commands++
		for _, imp := range imps {
			if other, ok := strings.CutPrefix(imp, module+"/ui/"); ok && isCommand(other) {
				t.Errorf("the command package ui/%s imports the command package ui/%s: move what they share into a package named for it", pkg, other)
			}
		}
	}
	if commands < 8 {
		t.Fatalf("found %d command packages under ui/cli; the walk is not reading the tree", commands)
	}
}
