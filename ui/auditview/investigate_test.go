package auditview

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// burst delivers s as ONE key message, as a terminal read of several keys
// arrives (tmux send-keys -l 'jjjj', fast typing, key repeat over SSH).
func (r *rig) burst(s string) {
	_, cmd := r.m.Update(pagetest.Key(s))
	r.run(cmd)
}

// retype replaces what an open prompt offers (w and I start with the
// selected row's value) with s, and applies it.
func (r *rig) retype(s string) {
	_, cmd := r.m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	r.run(cmd)
	r.typeLine(s)
}

// TestTypePickerTakesBursts: keys that arrive together move the picker as
// they do apart. Before, "jjjj" in one read moved nothing and `t j×6 enter`
// typed fast applied "(all types)".
func TestTypePickerTakesBursts(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 500}, false, "")
	r.run(r.m.Init())
	r.key("t")
	r.burst("jjjj")
	if r.m.pickAt != 4 {
		t.Fatalf("jjjj in one read: the picker is on %d, want 4", r.m.pickAt)
	}
	r.burst("kk")
	if r.m.pickAt != 2 {
		t.Fatalf("kk in one read: the picker is on %d, want 2", r.m.pickAt)
	}
	r.key("esc")
	r.key("t")
	r.burst("jjjjjj")
	want := r.m.picker[6]
	r.key("enter")
	if r.m.filter.Type != want || want == "" {
		t.Fatalf("t j×6 enter applied %q, want %q", r.m.filter.Type, want)
	}
}

// TestJumpPromptKeepsABadValue: a value that is not a time keeps the
// prompt open with the error under it, and what is typed next goes on
// into the prompt, never to the table or the command line.
func TestJumpPromptKeepsABadValue(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 500}, false, "")
	r.run(r.m.Init())
	r.key("@")
	r.burst("2026-11-3x")
	r.key("enter")
	if r.m.prompt != "time" {
		t.Fatalf("a bad time closed the prompt; view:\n%s", r.m.View())
	}
	lines := strings.Split(ansi.Strip(r.m.View()), "\n")
	n := len(lines)
	if !strings.Contains(lines[n-2], "jump to") || !strings.Contains(lines[n-1], `not a date`) || !strings.Contains(lines[n-1], `"2026-11-3x"`) {
		t.Fatalf("want the prompt with the error under it; the view ends:\n%s\n%s", lines[n-2], lines[n-1])
	}
	r.burst(" 14:05")
	if got := r.m.input.Value(); got != "2026-11-3x 14:05" {
		t.Fatalf("what was typed after the error went elsewhere: the prompt holds %q", got)
	}
	if !r.m.CapturesInput() {
		t.Fatal("the prompt does not hold the keyboard")
	}
	// fixed, the jump lands and the error goes
	for range len("3x 14:05") {
		r.key("backspace")
	}
	r.burst("24 06:00")
	r.key("enter")
	if r.m.prompt != "" || r.m.lastErr != nil {
		t.Fatalf("a good time did not jump: prompt %q, error %v", r.m.prompt, r.m.lastErr)
	}
	if strings.Contains(r.m.View(), "not a date") {
		t.Fatalf("the old error is still shown:\n%s", r.m.View())
	}
}

// TestJumpTakesAges: @ takes what --since takes: an age (36h, 7d) as well
// as a date or a time.
func TestJumpTakesAges(t *testing.T) {
	for _, c := range []struct {
		typed string
		at    time.Time
	}{
		{"36h", simNow.Add(-36 * time.Hour)},
		{"7d", simNow.Add(-7 * 24 * time.Hour)},
		{"2026-11-20 14:05", time.Date(2026, 11, 20, 14, 5, 0, 0, time.UTC)},
	} {
		r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, false, "")
		r.run(r.m.Init())
		r.key("@")
		r.burst(c.typed)
		r.key("enter")
		if r.m.prompt != "" || r.m.lastErr != nil {
			t.Fatalf("@%s: prompt %q, error %v", c.typed, r.m.prompt, r.m.lastErr)
		}
		sel, ok := r.m.Table.Selected()
		if !ok {
			t.Fatalf("@%s: nothing selected", c.typed)
		}
		i := r.m.byID[sel.ID]
		if e := r.m.entries[i]; e.Time.Before(c.at) || (i+1 < len(r.m.entries) && !r.m.entries[i+1].Time.Before(c.at)) {
			t.Fatalf("@%s: landed on %s, not the first entry at or after %s", c.typed, e.Time, c.at)
		}
	}
}

// TestPromptsOfferTheSelectedRow: w and I start with the selected row's
// user and address, ready to apply or edit.
func TestPromptsOfferTheSelectedRow(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 500}, false, "")
	r.run(r.m.Init())
	r.burst("jjj")
	sel, _ := r.m.Table.Selected()
	e := r.m.entries[r.m.byID[sel.ID]]
	r.key("w")
	if got := r.m.input.Value(); got != e.User {
		t.Fatalf("w offers %q, want the selected row's user %q", got, e.User)
	}
	r.key("enter")
	if r.m.filter.User != e.User {
		t.Fatalf("enter on the offered user filtered by %q", r.m.filter.User)
	}
	r.key("I")
	sel, _ = r.m.Table.Selected()
	e = r.m.entries[r.m.byID[sel.ID]]
	if got := r.m.input.Value(); got != e.IP {
		t.Fatalf("I offers %q, want the selected row's address %q", got, e.IP)
	}
}

// bodyRows is the table's rows as drawn: the lines between its column
// header and its info line.
func bodyRows(view string) []string {
	lines := strings.Split(ansi.Strip(view), "\n")
	head := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Time (UTC)") })
	return lines[head+1 : len(lines)-1]
}

// TestJumpCentresItsTarget: a jump's target is drawn in the middle of the
// table, newer entries above it and older below; it was drawn on the last
// row, older entries off screen.
func TestJumpCentresItsTarget(t *testing.T) {
	for _, h := range []int{24, 40} {
		r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, false, "2026-11-20 14:05")
		r.m.SetSize(120, h-2)
		r.run(r.m.Init())
		sel, _ := r.m.Table.Selected()
		e := r.m.entries[r.m.byID[sel.ID]]
		rows := bodyRows(r.m.View())
		at := slices.IndexFunc(rows, func(l string) bool {
			return strings.Contains(l, e.Time.UTC().Format(timeLayout)) && strings.Contains(l, e.IP)
		})
		if at < 0 {
			t.Fatalf("%d lines: the target is not on screen:\n%s", h, strings.Join(rows, "\n"))
		}
		if above, below := at, len(rows)-1-at; above < len(rows)/3 || below < len(rows)/3 {
			t.Fatalf("%d lines: the target is drawn with %d rows above and %d below:\n%s", h, above, below, strings.Join(rows, "\n"))
		}
	}
}

// TestOwnReadsHiddenAndToggled: the view's own reads of the log (this
// token's api:audit_log_fetch entries) no longer fill the first rows: they
// are hidden by default, counted in the header, and h shows them again
// (muted), h hides them. Before, about twenty of them led the table at
// open with no way to hide them.
func TestOwnReadsHiddenAndToggled(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, false, "")
	r.log() // reads by this token before the view opens: 3 pages
	r.run(r.m.Init())
	own := func() (n int) {
		for _, id := range r.m.Table.VisibleIDs() {
			if audit.IsOwnRead(r.m.entries[r.m.byID[id]], r.m.self) {
				n++
			}
		}
		return n
	}
	if r.m.self == "" {
		t.Fatal("the view does not know whose token it reads with")
	}
	if n := own(); n != 0 {
		t.Fatalf("at open %d of the token's own reads are shown:\n%s", n, strings.Join(r.rows()[:5], "\n"))
	}
	if h := ansi.Strip(r.m.headerLine()); !strings.Contains(h, "own reads hidden") {
		t.Errorf("the header does not say own reads are hidden: %s", h)
	}
	r.key("h")
	if n := own(); n < 3 {
		t.Fatalf("h shows %d own reads, want at least the 3 made before", n)
	}
	if h := ansi.Strip(r.m.headerLine()); strings.Contains(h, "own reads hidden") {
		t.Errorf("shown, the header still says hidden: %s", h)
	}
	r.key("h")
	if n := own(); n != 0 {
		t.Fatalf("h again still shows %d own reads", n)
	}
	if !slices.ContainsFunc(r.m.ContextKeys(), func(b key.Binding) bool { return b.Help().Key == "h" }) {
		t.Error("the footer does not offer h")
	}
	if !slices.ContainsFunc(r.m.Help(), func(b key.Binding) bool { return b.Help().Key == "h" }) {
		t.Error("help does not list h")
	}
}
