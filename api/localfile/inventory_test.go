package localfile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// opensThatAreNotReads are the calls of os.Open, os.OpenFile and
// os.ReadFile outside this package that do not read a file a person names,
// each with why. A new one fails TestEveryReadOfALocalFileIsThisPackages
// until it goes through Open or Read, or is listed here with its reason.
var opensThatAreNotReads = map[string]string{
	"api/audit/followfile.go":     "the follow file: an append-only writer the store helper owns (O_NOFOLLOW|O_NONBLOCK, checked by identity)",
	"api/token/file.go":           "the token directory, opened to fsync a rename",
	"store/locks.go":              "a lock file created with O_EXCL",
	"store/joblock_unix.go":       "a write job's lock file (flock, O_NOFOLLOW): the store's own file; the holder's name read of it is bounded (512 bytes)",
	"store/readonly.go":           "the store's database probed for a read-only filesystem (opened, closed at once): the store's own file, not one a person names",
	"store/recover.go":            "the store's recovered copy and its folder, fsynced: the store's own files",
	"store/walcheck.go":           "the store's write-ahead log, checked for lost frames: the store's own file (its edge is the store's row)",
	"ui/cli/debuglog/debuglog.go": "the --debug-file log of every command and serve: appended to, not read (O_NOFOLLOW|O_NONBLOCK: a pipe nobody reads is refused)",
	"ui/app/export.go":            "the console's export, written with O_EXCL",
	"ui/serve/hostkey.go":         "the host key generated with O_EXCL (it is read back through Open)",
}

// TestEveryReadOfALocalFileIsThisPackages: the files a person names (the
// CA bundle, keys, a token file, a matter file, an upload's files, the
// saved views) are read in one place, with a bound and without blocking.
// It walks the module's code (not its tests, not testdata) for the calls
// that open a file by name.
func TestEveryReadOfALocalFileIsThisPackages(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	seen, files := map[string]bool{}, 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." || rel == "api/localfile" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			name := pkg.Name + "." + sel.Sel.Name
			switch name {
			case "os.Open", "os.OpenFile", "os.ReadFile", "ioutil.ReadFile":
			default:
				return true
			}
			if _, ok := opensThatAreNotReads[rel]; ok {
				seen[rel] = true
				return true
			}
			t.Errorf("%s: %s reads a local file without a bound: use localfile.Open or Read with its Kind (or list it in opensThatAreNotReads, saying why)", fset.Position(call.Pos()), name)
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 300 {
		t.Fatalf("read %d Go files; the walk is not reading the module", files)
	}
	for rel := range opensThatAreNotReads {
		if !seen[rel] {
			t.Errorf("%s is excused in opensThatAreNotReads but opens nothing now: remove it", rel)
		}
	}
}
