package account

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestViewsMistakeNamesFileAndLine: every kind of mistake is one error,
// FILE:LINE: what is wrong.
func TestViewsMistakeNamesFileAndLine(t *testing.T) {
	check := func(args []string) error {
		if args[0] != "recycle-bin" {
			return errors.New(`"` + args[0] + `" is not a listing a view can save`)
		}
		return nil
	}
	for _, c := range []struct{ text, want string }{
		{"# c\n\nweek = recycle-bin\nnope\n", "views:4: expected NAME = COMMAND"},
		{"week = recycle-bin\nweek = recycle-bin\n", `views:2: the view "week" is already named on line 1`},
		{"9lives = recycle-bin\n", `views:1: "9lives" is not a view name`},
		{"a b = recycle-bin\n", `views:1: "a b" is not a view name`},
		{"week = recycle-bin 'unclosed\n", `views:1: the command of "week" cannot be read`},
		{"week =   \n", `views:1: the view "week" has no command`},
		{"\n\nweek = reycle-bin\n", `views:3: "reycle-bin" is not a listing`},
	} {
		_, err := ParseViews("views", []byte(c.text), check)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want %q…", c.text, err, c.want)
		}
	}
	vs, err := ParseViews("views", []byte("a = recycle-bin --deleted-by 'O'\"'\"'Brien x'\n"), check)
	if err != nil || len(vs) != 1 || strings.Join(vs[0].Args, "|") != "recycle-bin|--deleted-by|O'Brien x" {
		t.Fatalf("%v %+v", err, vs)
	}
}

// TestSaveViewKeepsHandEdits: saving replaces the view's own line in
// place and keeps every other line (comments, order); a file with a
// mistake is not written over.
func TestSaveViewKeepsHandEdits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "views")
	if err := SaveView(path, "week", "recycle-bin --purging-within 7d", nil); err != nil {
		t.Fatal(err)
	}
	hand := "# mine\nother = projects --name 'a b'\n" + mustRead(t, path)[strings.Index(mustRead(t, path), "week ="):] + "# tail\n"
	os.WriteFile(path, []byte(hand), 0o600)
	if err := SaveView(path, "week", "recycle-bin --purging-within 3d", nil); err != nil {
		t.Fatal(err)
	}
	want := "# mine\nother = projects --name 'a b'\nweek = recycle-bin --purging-within 3d\n# tail\n"
	if got := mustRead(t, path); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	os.WriteFile(path, []byte(want+"broken line\n"), 0o600)
	err := SaveView(path, "new", "projects", nil)
	if err == nil || !strings.Contains(err.Error(), path+":5:") || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("saving over a mistake: %v", err)
	}
	if got := mustRead(t, path); got != want+"broken line\n" {
		t.Errorf("the hand edit was written over:\n%s", got)
	}
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
