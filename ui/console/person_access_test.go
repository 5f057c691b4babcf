package console

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/store"
)

func runes(s string) tea.Msg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// writableScreen is personScreen's console allowed to write, handed the
// write jobs as `vaultdeck` hands them (ClientJobs).
func writableScreen(t *testing.T) (*screen, string, *api.Client) {
	s, who := personScreen(t)
	c := s.opts.Backend.(*api.Client)
	s.opts.ReadOnly, s.opts.Jobs = false, ClientJobs(c)
	return s, who, c
}

func directOf(t *testing.T, c *api.Client, who string) map[string]string {
	t.Helper()
	ps, _, err := change.Listing(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for id, p := range ps {
		if d, ok := p.Direct[strings.ToLower(who)]; ok {
			out[id] = d.AccessLevel
		}
	}
	return out
}

// TestPersonRemovesMarkedShares: in :person, x marks reach rows and X
// plans the removal of those direct shares against the service now, shows
// the plan, takes the typed count and runs the "access" write job: the
// service then has neither share, the journal holds the job with the
// service's outcomes, and the view shows them with the receipt's command.
func TestPersonRemovesMarkedShares(t *testing.T) {
	s, who, c := writableScreen(t)
	before := directOf(t, c, who)
	tm := s.open(t, "person", who, 120, 40, "Activity")
	// rows 0 (Bellhaven, MANAGE, direct) and 2 (Meridian, MANAGE, direct)
	for _, k := range []string{"x", "j", "j", "x", "X"} {
		tm.Send(runes(k))
	}
	waitFor(t, tm, "Change access", "remove", "2 changes in 2 requests", "Type 2 to confirm")
	tm.Send(runes("2"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Last change: access job 1", "access receipts 1")
	v := final(t, tm)
	if strings.Count(v, "done     removed") != 2 || strings.Count(v, "direct share removed since the snapshot") != 2 {
		t.Errorf("the view does not show both removals, on the rows and as outcomes:\n%s", v)
	}
	if strings.Contains(v, "*MANAGE") {
		t.Errorf("the marks outlive the run they were for:\n%s", v)
	}
	after := directOf(t, c, who)
	if len(after) != len(before)-2 {
		t.Errorf("direct shares %v before, %v after: want two fewer", before, after)
	}
	jobs, err := s.opts.Journal.WriteJobs(change.KindName)
	if err != nil || len(jobs) != 1 || jobs[0].Status != store.JobComplete {
		t.Fatalf("the journal's access jobs: %+v, %v", jobs, err)
	}
	if !strings.Contains(jobs[0].Plan, "remove") || jobs[0].ActorEmail == "" {
		t.Errorf("the job records plan %q by %q", jobs[0].Plan, jobs[0].ActorEmail)
	}
}

// TestPersonRemoveIsOffReadOnly: a read-only session answers X with why,
// and sends nothing.
func TestPersonRemoveIsOffReadOnly(t *testing.T) {
	s, who := personScreen(t)
	tm := s.open(t, "person", who, 120, 40, "Activity")
	tm.Send(runes("X"))
	waitFor(t, tm, "is off: this session is read-only")
	final(t, tm)
	if n := s.requests.Load(); n != 0 {
		t.Errorf("X in a read-only session made %d requests", n)
	}
}
