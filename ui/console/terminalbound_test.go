package console

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// pathological is a name no terminal can show more of than its first
// letters: 100,000 zero-width joiners and 100,000 combining acute accents
// (issue 40, case 7).
func pathological(prefix string) string {
	return prefix + strings.Repeat("\u200d", 100_000) + strings.Repeat("\u0301", 100_000) + " matter"
}

// bytesUntil reads what the console writes until every text is in it, and
// says how many bytes that was.
func bytesUntil(t *testing.T, tm *teatest.TestModel, texts ...string) int {
	t.Helper()
	n := 0
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		n = len(b)
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
	return n
}

// TestAFrameIsBoundedByTheScreenWhateverTheNames: a project and its files
// named with 200,000 zero-width and combining characters made one j on
// the projects list write 500 KB to the terminal (7 s a key on a 0.6
// Mbit/s link), and opening the project 2 MB. Runs of them collapse to a
// marker per cell in sanitize, so at 120x40 a key writes what a few rows
// of 120 cells take, whatever the data.
func TestAFrameIsBoundedByTheScreenWhateverTheNames(t *testing.T) {
	s := newScreen(t, false)
	// Colours, as a terminal draws them: the cursor's row is redrawn when
	// it moves (in the ASCII profile it looks the same and is not).
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	s.opts.Renderer = r
	id, err := s.sim.AddProject(sim.ProjectSpec{Name: pathological("Zed ")})
	if err != nil {
		t.Fatal(err)
	}
	files := make([]sim.FileSpec, 5)
	for i := range files {
		files[i].Name = pathological(string(rune('a'+i)) + " exhibit ")
	}
	if _, err := s.sim.AddFiles(id, files); err != nil {
		t.Fatal(err)
	}
	tm := s.open(t, "projects", "", 120, 40, "of 13 loaded")
	// The pathological project sorts last: G goes to it, k leaves it and j
	// comes back, each redrawing its row.
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("G")})
	bytesUntil(t, tm, "13/13")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("k")})
	bytesUntil(t, tm, "12/13")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
	if n := bytesUntil(t, tm, "13/13"); n > 20_000 {
		t.Errorf("one j onto the row of the pathological name wrote %d bytes to the terminal, want under 20 KB at 120x40", n)
	} else {
		t.Logf("one j: %d bytes", n)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	if n := bytesUntil(t, tm, "1/1"); n > 200_000 {
		t.Errorf("opening the project wrote %d bytes to the terminal, want under 200 KB at 120x40 (a whole screen)", n)
	} else {
		t.Logf("opening the project: %d bytes", n)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyTab})
	if n := bytesUntil(t, tm, "1/5"); n > 200_000 {
		t.Errorf("its files, 5 pathological names, wrote %d bytes to the terminal, want under 200 KB at 120x40", n)
	} else {
		t.Logf("its files: %d bytes", n)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
	if n := bytesUntil(t, tm, "2/5"); n > 20_000 {
		t.Errorf("one j on its files wrote %d bytes to the terminal, want under 20 KB at 120x40", n)
	} else {
		t.Logf("one j on its files: %d bytes", n)
	}
	final(t, tm)
}
