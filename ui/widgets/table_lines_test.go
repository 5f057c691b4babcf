package widgets

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Issue 46: a cursor move draws anew only the rows whose selection
// changed; the other lines come from the last frame. Measured by the
// lines the frame drew, so it fails if every line is fitted and styled
// again (as before the cache: 10 lines a move at this size).
func TestCursorMoveDrawsTwoLines(t *testing.T) {
	tb := sampleTable(t, 1000)
	_ = tb.View()
	run(tb, down)
	_ = tb.View()
	if n := tb.drawn.fresh; n != 2 {
		t.Errorf("a cursor move drew %d lines anew, want 2 (the row left and the row reached)", n)
	}
}

// Every frame drawn with the last one's lines is the frame drawn from
// nothing: the cache's key holds all a line is drawn from. The keys walk
// moves, marks, scrolls a page, sorts, filters, resizes and narrows.
func TestReusedLinesAreTheFreshOnes(t *testing.T) {
	tb := sampleTable(t, 300)
	steps := []func(){
		func() { run(tb, down) }, func() { run(tb, runes("x")) }, func() { run(tb, down) },
		func() { run(tb, tea.KeyMsg{Type: tea.KeyPgDown}) }, func() { run(tb, runes("x")) },
		func() { run(tb, runes("o")) }, func() { run(tb, runes("o")) }, func() { run(tb, tea.KeyMsg{Type: tea.KeyUp}) },
		func() { tb.SetSize(40, 8) }, func() { run(tb, down) }, func() { tb.SetSize(90, 20) },
		func() { run(tb, runes("/")); run(tb, runes("project-0001")); run(tb, enter) }, func() { run(tb, down) },
		func() { run(tb, esc) }, func() { run(tb, runes("x")) },
	}
	for i, step := range steps {
		_ = tb.View() // the frame before: its lines are the ones reused
		step()
		got := tb.View()
		tb.drawn = lineCache{}
		if want := tb.View(); got != want {
			t.Fatalf("step %d: the frame with reused lines differs from the fresh one:\n%s\n---\n%s", i, got, want)
		}
	}
}
