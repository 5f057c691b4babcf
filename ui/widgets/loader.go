package widgets

import (
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/themes"
)

// Loader is a spinner that ticks only while something loads: Start arms
// the tick when the first request begins, and once Done has balanced every
// Start the next tick is not re-armed, so an idle console sends no
// messages at all (no redraws, no battery drain over SSH).
type Loader struct {
	spin     spinner.Model
	inflight int
	ticking  bool
}

// NewLoader returns an idle loader.
func NewLoader(th themes.Theme) *Loader {
	return &Loader{spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(th.Spinner))}
}

// Start counts one more request and returns the first tick if idle.
func (l *Loader) Start() tea.Cmd {
	l.inflight++
	if l.ticking {
		return nil
	}
	l.ticking = true
	return l.spin.Tick
}

// Done counts one request finished.
func (l *Loader) Done() { l.inflight = max(l.inflight-1, 0) }

// Reset forgets every request (a refresh superseded them).
func (l *Loader) Reset() { l.inflight = 0 }

// Active reports whether something is loading.
func (l *Loader) Active() bool { return l.inflight > 0 }

// Update advances the spinner on its own ticks; it re-arms only while active.
func (l *Loader) Update(msg tea.Msg) tea.Cmd {
	tick, ok := msg.(spinner.TickMsg)
	if !ok || tick.ID != l.spin.ID() {
		return nil
	}
	if l.inflight == 0 {
		l.ticking = false
		return nil
	}
	var cmd tea.Cmd
	l.spin, cmd = l.spin.Update(msg)
	return cmd
}

// View is the spinner glyph while loading, else empty.
func (l *Loader) View() string {
	if l.inflight == 0 {
		return ""
	}
	return l.spin.View()
}
