package console

import (
	"bytes"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

type sizedModel struct{ width int }

func (m sizedModel) Init() tea.Cmd { return nil }
func (m sizedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		m.width = s.Width
	}
	return m, nil
}
func (m sizedModel) View() string {
	if m.width == 0 {
		return ""
	}
	return "frame"
}

// TestAfterFirstFrameWaitsForTheFrame: the hook runs after the first write
// that follows a view with something in it (the frame going out), not on
// the writes before (alternate screen, an empty view), and only once.
func TestAfterFirstFrameWaitsForTheFrame(t *testing.T) {
	calls := 0
	var out bytes.Buffer
	m, w := withFirstFrame(sizedModel{}, &out, func() { calls++ })
	_ = m.View()
	_, _ = w.Write([]byte("\x1b[?1049h")) // Bubble Tea's set-up, before any frame
	if calls != 0 {
		t.Fatalf("the hook ran before any frame: %d", calls)
	}
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if _, ok := m.(firstFrameModel); !ok {
		t.Fatalf("Update returned %T: the wrapper was lost", m)
	}
	if calls != 0 {
		t.Fatalf("the hook ran before the frame was written: %d", calls)
	}
	if m.View() != "frame" {
		t.Fatal("the view was not passed through")
	}
	_, _ = w.Write([]byte("frame"))
	_, _ = w.Write([]byte("frame"))
	if calls != 1 || out.String() != "\x1b[?1049hframeframe" {
		t.Fatalf("calls %d, written %q", calls, out.String())
	}
}
