package console

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// pinned is a clock at pagetest.Now that never waits: the local data's
// times (snapshot end, mirror position, cache time) are those of a
// golden screen.
type pinned struct{}

func (pinned) Now() time.Time                                   { return pagetest.Now }
func (pinned) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// personScreen is the console over the simulator with its planted leaver,
// after one access crawl, one audit sync and one person report (which
// cached the listings): everything the person view shows is local. The
// counter counts every request from then on.
func personScreen(t *testing.T) (*screen, string) { return personScreenWith(t, true) }

// personScreenWith leaves the listings uncached when cached is false.
func personScreenWith(t *testing.T, cached bool) (*screen, string) {
	t.Helper()
	now := func() time.Time { return pagetest.Now }
	var n atomic.Int64
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Now: now, NoRateLimit: true, Leaver: true},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				next.ServeHTTP(w, r)
			})
		}})
	c := e.Client
	st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	if _, err := (&access.Crawler{API: c, Store: st, Profile: "sim", Now: now}).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := (&audit.Job{Svc: c, Mirror: st, Clock: pinned{}}).Sync(ctx); err != nil {
		t.Fatal(err)
	}
	who := e.Sim.Leaver()
	in := person.Local{Snapshots: st, Profile: "sim", Cache: person.StoreCache{Store: st, Profile: "sim"}, Mirror: st}
	rep, err := person.Read(ctx, in, who, now(), person.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cached {
		if err := person.Fill(ctx, c, c, in, rep, now, nil); err != nil {
			t.Fatal(err)
		}
	}
	n.Store(0)
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return &screen{sim: e.Sim, requests: &n, opts: Options{Backend: c, Conn: &account.Conn{Profile: "sim", DataProfile: "sim", Where: "local", Workspace: "Harrowgate LLP"},
		ReadOnly: true, Theme: "dark", Renderer: r, Journal: st, Receipts: st,
		Cache: StoreCache{Store: st, Profile: "sim", Now: now}, Now: now}}, who
}

// TestGoldenPerson keeps the person view of the planted leaver at 80x24
// and 120x40, from local data only: not one request.
func TestGoldenPerson(t *testing.T) {
	s, who := personScreen(t)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tm := s.open(t, "person", who, size[0], size[1], "Activity", "only MANAGE")
			v := final(t, tm)
			lines := strings.Split(v, "\n")
			if len(lines) != size[1] {
				t.Errorf("%d lines, want %d", len(lines), size[1])
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > size[0] {
					t.Errorf("a line of %d columns: %q", ansi.StringWidth(l), l)
				}
			}
			golden.RequireEqual(t, []byte(v))
		})
	}
	if n := s.requests.Load(); n != 0 {
		t.Errorf("the person view made %d requests; the local data covers it", n)
	}
}

// TestPersonOpensFromEveryRowThatNamesOne: P opens the person view from a
// deleter in the bin, a user of a project, an audit entry and a person in
// the access review; enter on the activity part opens the audit log
// filtered to them.
func TestPersonOpensFromEveryRowThatNamesOne(t *testing.T) {
	s, who := personScreen(t)
	key := func(k string) tea.Msg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)} }
	var proj string
	for _, p := range s.sim.Projects() {
		if p.Name == sim.LeaverProjectName {
			proj = p.ID
		}
	}
	for _, c := range []struct {
		name, route, arg string
		wait             string
		before           []tea.Msg
	}{
		{"bin", "bin", "", "entries", nil},
		{"project users", "project", proj, "tab files", nil},
		{"audit", "audit", who, "1/", nil},
		{"access", "access", "", "people", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			tm := s.open(t, c.route, c.arg, 120, 40, c.wait)
			for _, m := range c.before {
				tm.Send(m)
			}
			tm.Send(key("P"))
			waitFor(t, tm, "Person ", "Reach", "Activity")
			final(t, tm)
		})
	}
	t.Run("enter on activity", func(t *testing.T) {
		tm := s.open(t, "person", who, 120, 40, "Activity")
		tm.Send(tea.KeyMsg{Type: tea.KeyTab})
		tm.Send(tea.KeyMsg{Type: tea.KeyTab})
		tm.Send(tea.KeyMsg{Type: tea.KeyTab})
		tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
		waitFor(t, tm, who, "1/")
		final(t, tm)
	})
}

// TestPersonViewFillsWhatIsMissing: with the snapshot and the mirror but
// no cached listing, the view opens without a request and says what is
// missing; r asks for the projects listing and the bin (the matters
// listing needs the matters job, which a read-only session lacks, and
// the view says to run the command instead), and nothing else.
func TestPersonViewFillsWhatIsMissing(t *testing.T) {
	s, who := personScreenWith(t, false)
	tm := s.open(t, "person", who, 120, 40, "missing: the projects listing is not cached", "r reads it", "in a shell reads it")
	if n := s.requests.Load(); n != 0 {
		t.Errorf("opening made %d requests", n)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	waitFor(t, tm, "projects listing, read now", "recycle bin, read now")
	final(t, tm)
	if n := s.requests.Load(); n != 2 {
		t.Errorf("r made %d requests, want 2 (one page of 12 projects, the bin)", n)
	}
}

// TestEnterOnAReachRowOpensItsProject: in :person, enter on a row of the
// reach part opens that project (issue 43: it said "nothing to open
// here"); j moves to the next row, whose project opens instead.
func TestEnterOnAReachRowOpensItsProject(t *testing.T) {
	s, who := personScreen(t)
	tm := s.open(t, "person", who, 120, 40, "Activity")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "tab files")
	v := final(t, tm)
	if strings.Contains(v, "nothing to open") {
		t.Errorf("enter on the first reach row said nothing to open:\n%s", v)
	}
	rep, err := person.Read(context.Background(), person.Local{Snapshots: s.opts.Journal, Profile: "sim"}, who, pagetest.Now, person.Options{})
	if err != nil || len(rep.Reach.Grants) < 2 {
		t.Fatalf("the leaver's reach: %v, %d grants", err, len(rep.Reach.Grants))
	}
	if crumb := strings.Split(v, "\n")[1]; !strings.Contains(crumb, rep.Reach.Grants[0].ProjectName) {
		t.Errorf("enter on the first row opened %q, want %s", crumb, rep.Reach.Grants[0].ProjectName)
	}
	tm = s.open(t, "person", who, 120, 40, "Activity")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "tab files")
	v = final(t, tm)
	if crumb := strings.Split(v, "\n")[1]; !strings.Contains(crumb, rep.Reach.Grants[1].ProjectName) {
		t.Errorf("j then enter opened %q, want %s", crumb, rep.Reach.Grants[1].ProjectName)
	}
}
