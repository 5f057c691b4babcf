package filestatusview

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

var nextPoll = regexp.MustCompile(`next poll in (\S+)`)

func (r *rig) countdown() string {
	m := nextPoll.FindStringSubmatch(r.m.View())
	if m == nil {
		return ""
	}
	return m[1]
}

// clockTick delivers the view's 1-second tick a second later (the rig's
// clock, no wall time) and reports whether the view re-armed it.
func (r *rig) clockTick() bool {
	r.now = r.now.Add(time.Second)
	_, cmd := r.m.Update(page.ClockTick{Tag: page.Tag{View: r.m.id}})
	return armsClock(cmd)
}

// armsClock reports whether cmd (run, batches opened) yields a ClockTick.
func armsClock(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case page.ClockTick:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if armsClock(c) {
				return true
			}
		}
	}
	return false
}

// Issue 29.4: File status showed 'next poll in 12s … last poll 0s ago'
// unchanged for 12 s. While the countdown is on screen the view ticks once
// a second and the countdown counts; covered, closed or settled, nothing
// ticks.
func TestCountdownTicksOnlyWhileShown(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{BaseInterval: 12 * time.Second})
	r.run(r.m.Init())
	first := r.countdown()
	if first == "" {
		t.Fatalf("no countdown after the first poll:\n%s", r.m.View())
	}
	if !r.clockTick() {
		t.Fatal("the countdown on screen armed no 1-second tick")
	}
	if got := r.countdown(); got == first {
		t.Errorf("a second later the countdown still reads %s", got)
	}
	if !strings.Contains(r.m.View(), "last poll 1s ago") {
		t.Errorf("a second after the poll:\n%s", r.m.View())
	}

	r.m.Deactivate()
	if r.clockTick() {
		t.Error("a covered view re-armed its tick")
	}
	if !armsClock(r.m.Activate()) {
		t.Error("shown again, the countdown armed no tick")
	}
	r.m.Close()
	if r.clockTick() {
		t.Error("a closed view re-armed its tick")
	}
}

// Settled, there is no countdown: nothing ticks, and the last poll is
// said as a time, which does not go stale without a tick.
func TestSettledViewDoesNotTick(t *testing.T) {
	fake := newFake()
	fake.set("ready", "a")
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	if r.countdown() != "" || r.clockTick() {
		t.Errorf("settled, yet a countdown or a tick:\n%s", r.m.View())
	}
	if v := r.m.View(); !strings.Contains(v, "last poll at 12:00:00") {
		t.Errorf("settled, the last poll should be a time:\n%s", v)
	}
}

// The vault budget's "resets in" is a countdown too: seen by hand in the
// demo at 60x16, a settled (or empty) file status read "resets in 45s"
// unchanged. While it is shown the view ticks; covered, or once the budget
// has nothing to reset, it does not.
func TestBudgetResetCountsWhileShown(t *testing.T) {
	fake := newFake()
	fake.set("ready", "a")
	fake.setBudget(api.BudgetStatus{Limit: 10, Remaining: 9, ResetIn: 45 * time.Second})
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	if v := r.m.View(); !strings.Contains(v, "resets in 45s") {
		t.Fatalf("no budget countdown:\n%s", v)
	}
	if !r.clockTick() {
		t.Fatal("the budget's reset countdown on screen armed no 1-second tick")
	}
	r.m.Deactivate()
	if r.clockTick() {
		t.Error("a covered view re-armed its tick")
	}
	if !armsClock(r.m.Activate()) {
		t.Error("shown again, the budget countdown armed no tick")
	}
	fake.setBudget(api.BudgetStatus{Limit: 10, Remaining: 10})
	if r.clockTick() {
		t.Error("nothing to reset, yet the view re-armed its tick")
	}
}
