package app

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// The status line has one row: an error longer than the terminal is cut
// there. The root keeps the last errors whole; `!` shows them in a pane
// that scrolls, newest first, each with its time, endpoint and cause.

// keptErrors is how many errors `!` can show.
const keptErrors = 20

type errorRecord struct {
	at  time.Time
	err error
}

func (m *Model) recordError(err error) {
	m.errs = append(m.errs, errorRecord{at: m.env.Clock(), err: err})
	if len(m.errs) > keptErrors {
		m.errs = m.errs[len(m.errs)-keptErrors:]
	}
}

// shortError is the status line's form: the first sentence-sized part that
// fits, and the hint that `!` shows the rest.
func (m *Model) shortError() string {
	const hint = " · ! shows it whole"
	s := m.status
	if ansi.StringWidth(s) <= m.width {
		return s
	}
	return ansi.Truncate(s, max(m.width-ansi.StringWidth(hint), 10), "…") + hint
}

func (m *Model) openErrors() {
	m.errPane = widgets.NewPane(m.env.Theme, m.env.Keys)
	w, h := m.bodySize()
	m.errPane.SetSize(w, h)
	m.errPane.SetContent(m.errorsText(max(w-4, 20)))
}

// errorsText is every kept error, newest first, wrapped to width.
func (m *Model) errorsText(width int) string {
	if len(m.errs) == 0 {
		return "no errors in this session"
	}
	var b strings.Builder
	for i := len(m.errs) - 1; i >= 0; i-- {
		r := m.errs[i]
		head := r.at.Format("15:04:05")
		var ae *api.Error
		if errors.As(r.err, &ae) && ae.Endpoint != "" {
			head += "  " + ae.Endpoint
			if ae.Status != 0 {
				head += fmt.Sprintf(" (%d)", ae.Status)
			}
		}
		b.WriteString(m.env.Theme.Title.Render(sanitize.Line(head)) + "\n")
		b.WriteString(ansi.Wrap(sanitize.Line(r.err.Error()), width, " ") + "\n")
		if c := rootCause(r.err); c != nil && !strings.Contains(r.err.Error(), c.Error()) {
			b.WriteString(ansi.Wrap("cause: "+sanitize.Line(c.Error()), width, " ") + "\n")
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// rootCause is the innermost wrapped error (a network error's "connection
// refused"), which the message above it may not quote.
func rootCause(err error) error {
	var last error
	for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
		last = e
	}
	return last
}
