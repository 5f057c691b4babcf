package console

import (
	"context"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/store"
)

// removeTwo runs :person's removal of the leaver's first and third reach
// rows (two direct MANAGE shares) as access job 1, and returns after it.
func removeTwo(t *testing.T, s *screen, who string) {
	t.Helper()
	tm := s.open(t, "person", who, 120, 40, "Activity")
	for _, k := range []string{"x", "j", "j", "x", "X"} {
		tm.Send(runes(k))
	}
	waitFor(t, tm, "Type 2 to confirm")
	tm.Send(runes("2"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Last change: access job 1")
	final(t, tm)
}

// TestReceiptsListsAndUndoesAnAccessJob: `:receipts` lists the access
// jobs as `vaultdeck access receipts` does, enter opens one's receipt (its
// changes and outcomes), and U plans its undo as `access undo` does, shows
// it in a typed confirmation of the count and runs it as an access job of
// its own: the service has both shares back, at their levels, and the
// receipt says it was undone.
func TestReceiptsListsAndUndoesAnAccessJob(t *testing.T) {
	s, who, c := writableScreen(t)
	before := directOf(t, c, who)
	removeTwo(t, s, who)
	if got := directOf(t, c, who); len(got) != len(before)-2 {
		t.Fatalf("the removal left %v of %v", got, before)
	}
	tm := s.open(t, "projects", "", 120, 40)
	tm.Send(runes(":"))
	tm.Send(runes("receipts"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Access jobs", "complete")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "access job 1", "done     removed", "(was MANAGE)")
	tm.Send(runes("U"))
	waitFor(t, tm, "Undo access job 1", "Type 2 to confirm")
	tm.Send(runes("2"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "undone by job 2")
	// once undone, U again is refused by name, and the line stays said
	// (found by hand: the "reading…" line came after the refusal and hid it)
	tm.Send(runes("U"))
	waitFor(t, tm, "already undone by job 2")
	v := final(t, tm)
	if !strings.Contains(lastLine(v), "already undone by job 2") {
		t.Errorf("the refusal did not stay on the status line: %q", lastLine(v))
	}
	after := directOf(t, c, who)
	for id, lvl := range before {
		if after[id] != lvl {
			t.Errorf("project %s: %q after the undo, want %q back", id, after[id], lvl)
		}
	}
	jobs, err := s.opts.Journal.WriteJobs(change.KindName)
	if err != nil || len(jobs) != 2 || jobs[0].UndoOf+jobs[1].UndoOf != 1 {
		t.Fatalf("the journal's access jobs: %+v, %v", jobs, err)
	}
	for _, j := range jobs {
		if j.Status != store.JobComplete {
			t.Errorf("job %d is %s", j.ID, j.Status)
		}
	}
}

// TestReceiptsUndoIsOffReadOnly: a read-only session lists the receipts
// and opens one, and U says why it is off, sending nothing.
func TestReceiptsUndoIsOffReadOnly(t *testing.T) {
	s, who, _ := writableScreen(t)
	removeTwo(t, s, who)
	s.opts.ReadOnly = true
	n := s.requests.Load()
	tm := s.open(t, "receipts", "", 80, 24, "Access jobs")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	// at 80 columns the labels wrap: the level before is still there
	waitFor(t, tm, "done     removed", "(was MANAGE)")
	tm.Send(runes("U"))
	waitFor(t, tm, "is off: this session is read-only")
	final(t, tm)
	if d := s.requests.Load() - n; d != 0 {
		t.Errorf("U in a read-only session made %d requests", d)
	}
}

// TestReceiptsUndoLeavesAColleaguesChangeAlone: a share someone gave back
// (at READ) between the job and its undo is left alone and named in the
// confirmation, whose count is the one change it still puts back; after
// the undo that project keeps the colleague's READ.
func TestReceiptsUndoLeavesAColleaguesChangeAlone(t *testing.T) {
	s, who, c := writableScreen(t)
	before := directOf(t, c, who)
	removeTwo(t, s, who)
	after := directOf(t, c, who)
	var again string
	for id := range before {
		if _, ok := after[id]; !ok {
			again = id
			break
		}
	}
	if _, err := c.UpdateProjectUsers(context.Background(), again, []api.UserAccess{{Email: who, AccessLevel: "READ"}}); err != nil {
		t.Fatal(err)
	}
	tm := s.open(t, "receipts", "1", 120, 40, "access job 1")
	tm.Send(runes("U"))
	waitFor(t, tm, "Undo access job 1", "left alone", "changed since", "1 change put back", "Type 1 to confirm")
	tm.Send(runes("1"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "undone by job 2")
	final(t, tm)
	got := directOf(t, c, who)
	for id, lvl := range before {
		want := lvl
		if id == again {
			want = "READ"
		}
		if got[id] != want {
			t.Errorf("project %s: %q after the undo, want %q", id, got[id], want)
		}
	}
}
