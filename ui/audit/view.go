package audit

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// headerLines is the number of lines View puts above the table.
const headerLines = 1

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	switch {
	case m.typing:
		return m.typeKeyPress(msg)
	case m.detail:
		return m.detailKey(msg)
	case m.table.Filtering():
		return m.table.Update(msg)
	}
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Enter):
		m.openDetail()
		return nil
	case key.Matches(msg, k.TypeCycle):
		return m.setType(nextType(observedTypes(m.types), m.pager.logType))
	case key.Matches(msg, k.TypeFilter):
		m.typing = true
		m.typeInput.SetValue(m.pager.logType)
		m.typeInput.Focus()
		return nil
	case key.Matches(msg, k.Refresh):
		return m.setType(m.pager.logType)
	}
	cmd := m.table.Update(msg)
	// A key press is the user asking for more: scrolling resumes paging.
	m.autoPages, m.paused = 0, false
	return tea.Batch(cmd, m.maybeLoad())
}

func (m *Model) typeKeyPress(msg tea.KeyMsg) tea.Cmd {
	switch msg.Type {
	case tea.KeyEsc:
		m.typing = false
		m.typeInput.Blur()
		return nil
	case tea.KeyEnter:
		m.typing = false
		m.typeInput.Blur()
		return m.setType(sanitizeType(m.typeInput.Value()))
	}
	m.typeInput.Update(msg)
	return nil
}

// setType restarts the listing with a type filter ("" for all types).
func (m *Model) setType(t string) tea.Cmd {
	m.reset(t)
	label := t
	if label == "" {
		label = "all types"
	}
	return tea.Batch(page.Status("audit log: "+label), m.maybeLoad())
}

// sanitizeType trims what a user typed or passed as a route argument; the
// value goes into a query parameter and onto the screen.
func sanitizeType(s string) string { return strings.TrimSpace(sanitize.Line(s)) }

func (m *Model) openDetail() {
	r, ok := m.table.Selected()
	if !ok {
		return
	}
	i, ok := m.byID[r.ID]
	if !ok {
		return
	}
	m.detail = true
	m.detailOffset = 0
	m.detailLines = strings.Split(strings.TrimRight(detailText(&m.pager.entries[i]), "\n"), "\n")
}

func (m *Model) detailKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	h := m.detailHeight()
	switch {
	case key.Matches(msg, k.Back), key.Matches(msg, k.Enter):
		m.detail = false
	case key.Matches(msg, k.Up):
		m.detailOffset--
	case key.Matches(msg, k.Down):
		m.detailOffset++
	case key.Matches(msg, k.PageUp):
		m.detailOffset -= h
	case key.Matches(msg, k.PageDown):
		m.detailOffset += h
	case key.Matches(msg, k.Top):
		m.detailOffset = 0
	case key.Matches(msg, k.Bottom):
		m.detailOffset = len(m.detailLines)
	}
	m.detailOffset = max(0, min(m.detailOffset, len(m.detailLines)-h))
	return nil
}

// detailHeight is the number of text lines inside the detail pane's border.
func (m *Model) detailHeight() int { return max(m.height-headerLines-2, 1) }

// View renders the header line and either the table or the detail pane.
func (m *Model) View() string {
	var b strings.Builder
	b.WriteString(m.headerLine())
	b.WriteByte('\n')
	switch {
	case m.detail:
		b.WriteString(m.detailView())
	case m.pager.empty:
		b.WriteString(m.env.Theme.Muted.Render(m.emptyText()))
	default:
		tv := m.table.View()
		if m.typing {
			if i := strings.LastIndexByte(tv, '\n'); i >= 0 {
				tv = tv[:i+1] + m.typeInput.View()
			}
		}
		b.WriteString(tv)
	}
	return b.String()
}

func (m *Model) emptyText() string {
	if m.pager.logType != "" {
		return "  no audit entries of type " + m.pager.logType + " (t or T to change the type)"
	}
	return "  no audit entries"
}

func (m *Model) headerLine() string {
	th := m.env.Theme
	parts := []string{th.Title.Render("Audit log")}
	if m.pager.logType != "" {
		parts = append(parts, "type "+m.pager.logType)
	} else {
		parts = append(parts, "all types")
	}
	loaded := itoa(len(m.pager.entries)) + " loaded"
	switch {
	case m.pager.done:
		loaded += " (end of log)"
	case m.paused:
		loaded += " (paused: scroll to load more)"
	}
	parts = append(parts, loaded)
	if m.detail {
		parts = append(parts, fmt.Sprintf("detail, line %d/%d (↑/↓ scroll, esc close)", m.detailOffset+1, len(m.detailLines)))
	}
	if s := m.loader.View(); s != "" {
		parts = append(parts, s+" loading")
	}
	if m.lastErr != nil {
		parts = append(parts, th.Error.Render(errorSummary(m.lastErr)))
	}
	line := strings.Join(parts, " · ")
	if m.width > 0 {
		line = ansi.Truncate(line, m.width, "…")
	}
	return line
}

// errorSummary is the short form for the header; the full sentence goes to
// the status line. A 403 names the permissions the audit log needs.
func errorSummary(err error) string {
	switch {
	case errors.Is(err, api.KindForbidden), errors.Is(err, api.KindUnauthorized):
		return "this token lacks Territory admin or Organization admin"
	case errors.Is(err, api.KindRateLimited):
		return "audit rate limit reached; scroll again shortly"
	}
	return "loading failed; scroll to retry"
}

func (m *Model) detailView() string {
	h := m.detailHeight()
	end := min(m.detailOffset+h, len(m.detailLines))
	lines := make([]string, 0, h)
	w := max(m.width-4, 10) // border and padding
	for _, l := range m.detailLines[m.detailOffset:end] {
		lines = append(lines, ansi.Truncate(l, w, "…"))
	}
	box := m.env.Theme.Border
	if m.width > 0 {
		box = box.Width(max(m.width-2, 10))
	}
	return box.Render(strings.Join(lines, "\n"))
}

func itoa(n int) string { return strconv.Itoa(n) }
