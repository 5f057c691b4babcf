package personcmd

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/person"
)

// TestSourceLineSaysTheOnce: seen by running `vaultdeck person` after the
// console had cached the projects: 'CREATED PROJECTS (from the the
// console's cached projects listing, ...)'.
func TestSourceLineSaysTheOnce(t *testing.T) {
	got := sourceLine(person.Source{From: person.FromConsoleProjects, AsOf: time.Date(2026, 11, 27, 8, 39, 0, 0, time.UTC)})
	if strings.Contains(got, "the the") || !strings.HasPrefix(got, "from the console's cached projects listing") {
		t.Errorf("%q", got)
	}
}

// TestReachLineSaysNone: seen by running `vaultdeck person` on someone
// who is the only MANAGE nowhere: '7 projects, 1 with MANAGE; the only
// MANAGE on 0 (someone must take these over if they leave)'.
func TestReachLineSaysNone(t *testing.T) {
	for _, c := range []struct {
		projects, manage, sole int
		want                   string
	}{
		{7, 1, 0, "7 projects, 1 with MANAGE; the only MANAGE on none"},
		{1, 1, 1, "1 project, 1 with MANAGE; the only MANAGE on 1 (someone must take it over if they leave)"},
		{3, 2, 2, "3 projects, 2 with MANAGE; the only MANAGE on 2 (someone must take these over if they leave)"},
	} {
		if got := reachLine(c.projects, c.manage, c.sole); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
