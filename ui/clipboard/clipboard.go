// Package clipboard copies IDs to the user's clipboard through the terminal
// (OSC 52, so it works over SSH), and shows them in a pane to select by hand
// when the terminal cannot be reached that way.
//
// Inside tmux a plain OSC 52 is what works: with `set-clipboard on` tmux
// takes it, keeps a buffer and forwards it to the outer terminal. The DCS
// passthrough wrapper reaches the outer terminal directly, but tmux 3.3+
// drops it unless `allow-passthrough` is on, so it is used only when tmux
// says so. Either way vaultdeck cannot see whether the outer terminal acted
// on the sequence, so the status line says it was sent, never that it was
// copied.
package clipboard

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Marker is a page whose rows can be marked (x); marked rows are copied
// together, one ID per line.
type Marker interface{ MarkedIDs() []string }

// Values is what `y` and `Y` act on in p: the marked IDs when there are
// some, else the selected record's ID. Nil when there is nothing.
func Values(p page.Page) []string {
	var ids []string
	if m, ok := p.(Marker); ok {
		ids = m.MarkedIDs()
	}
	if len(ids) == 0 {
		if s, ok := p.(page.Selector); ok {
			ids = []string{s.SelectedID()}
		}
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if id = sanitize.Line(id); id != "" {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Route is how the sequence reaches the terminal.
type Route uint8

// Routes.
const (
	Direct      Route = iota // no multiplexer: plain OSC 52
	TmuxPlain                // tmux with set-clipboard on: plain OSC 52, tmux forwards it
	TmuxWrapped              // tmux with allow-passthrough on: DCS-wrapped, to the outer terminal
	TmuxRefuses              // tmux ignores both; plain OSC 52 sent anyway, in vain
	Screen                   // GNU screen: DCS-wrapped (screen always passes DCS on)
)

// TmuxSettings are the two tmux options that decide the route.
type TmuxSettings struct{ SetClipboard, AllowPassthrough string }

// Choose picks the route from the environment and, inside tmux, its
// settings. Pure, for tests.
func Choose(getenv func(string) string, tmux TmuxSettings) Route {
	switch {
	case getenv("TMUX") != "":
		if tmux.SetClipboard == "on" {
			return TmuxPlain
		}
		if on(tmux.AllowPassthrough) {
			return TmuxWrapped
		}
		return TmuxRefuses
	case getenv("STY") != "" && strings.HasPrefix(getenv("TERM"), "screen"):
		return Screen
	}
	return Direct
}

func on(v string) bool { return v == "on" || v == "all" || v == "1" }

// ReadTmux asks the tmux server the program runs under for its settings.
// It runs a process: call it from a tea.Cmd only.
func ReadTmux(ctx context.Context, getenv func(string) string) TmuxSettings {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	args := []string{"display-message", "-p"}
	if pane := getenv("TMUX_PANE"); pane != "" {
		args = append(args, "-t", pane)
	}
	out, err := exec.CommandContext(ctx, "tmux", append(args, "#{set-clipboard}|#{allow-passthrough}")...).Output()
	if err != nil {
		return TmuxSettings{}
	}
	sc, ap, _ := strings.Cut(strings.TrimSpace(string(out)), "|")
	return TmuxSettings{SetClipboard: sc, AllowPassthrough: ap}
}

// Sequence is the bytes sent for text on route r.
func Sequence(text string, r Route) string {
	seq := osc52.New(text)
	switch r {
	case TmuxWrapped:
		seq = seq.Tmux()
	case Screen:
		seq = seq.Screen()
	}
	return seq.String()
}

// NothingSelected is what y and Y say with no row selected (a list that is
// still loading, or empty): silence would read as a key lost.
const NothingSelected = "nothing selected to copy: no row is selected"

// Copy returns the command that sends ids (one per line) to the terminal's
// clipboard through out and reports what was done in the status line.
func Copy(ctx context.Context, out io.Writer, getenv func(string) string, ids []string) tea.Cmd {
	if len(ids) == 0 {
		return page.Status(NothingSelected)
	}
	if out == nil {
		return page.Status("copying is not available in this session; Y shows the ID to select")
	}
	what := ids[0]
	if len(ids) > 1 {
		what = fmt.Sprintf("%d IDs", len(ids))
	}
	return send(ctx, out, getenv, what, strings.Join(ids, "\n"))
}

// MaxDocument is the largest text CopyDocument sends: OSC 52 carries it
// base64-encoded in one sequence, and terminals and tmux drop sequences
// much past a megabyte (or hang drawing nothing while they read one).
const MaxDocument = 512 << 10

// CopyDocument is Copy for one record's whole text (an audit entry the
// detail pane draws in part); past MaxDocument it says so instead, and
// points to saving where the session can save.
func CopyDocument(ctx context.Context, out io.Writer, getenv func(string) string, what, text string, canSave bool) tea.Cmd {
	if out == nil {
		return page.Status("copying is not available in this session")
	}
	if len(text) > MaxDocument {
		msg := fmt.Sprintf("%s is %d KB, more than a terminal's clipboard takes (%d KB)", what, len(text)>>10, MaxDocument>>10)
		if canSave {
			msg += "; e saves it to a file"
		}
		return page.Status(msg)
	}
	return send(ctx, out, getenv, what, text)
}

func send(ctx context.Context, out io.Writer, getenv func(string) string, what, text string) tea.Cmd {
	return func() tea.Msg {
		var tmux TmuxSettings
		if getenv("TMUX") != "" {
			tmux = ReadTmux(ctx, getenv)
		}
		r := Choose(getenv, tmux)
		// The sequence goes to the program's output directly: Bubble Tea v1
		// has no raw-write API, and tea.Printf would print it as text.
		if _, err := io.WriteString(out, Sequence(text, r)); err != nil {
			return page.StatusMsg{Err: fmt.Errorf("%s could not be sent to the terminal: %w", what, err)}
		}
		return page.StatusMsg{Text: Report(what, r)}
	}
}

// Report is the status line after sending what on route r.
func Report(what string, r Route) string {
	switch r {
	case TmuxRefuses:
		return fmt.Sprintf("tmux ignores clipboard sequences here (set -g set-clipboard on); Y shows %s to select", what)
	case TmuxPlain:
		return fmt.Sprintf("sent %s to the terminal's clipboard (through tmux; also in tmux's paste buffer)", what)
	}
	return fmt.Sprintf("sent %s to the terminal's clipboard", what)
}
