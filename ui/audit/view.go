package audit

import (
	"errors"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// headerLines is the number of lines View puts above the table.
const headerLines = 1

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	switch {
	case m.typing:
		return m.typeKeyPress(msg)
	case m.detail:
		return m.detailKey(msg)
	case m.Table.Filtering():
		return m.Table.Update(msg)
	}
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Enter):
		m.openDetail()
		return nil
	case key.Matches(msg, k.TypeCycle):
		return m.setType(nextType(observedTypes(m.types), m.pager.logType))
	case key.Matches(msg, k.TypeFilter):
		// Empty, with the current type as a hint: typing replaces the
		// filter rather than appending to it.
		m.typing = true
		m.typeInput.SetValue("")
		m.typeInput.Placeholder = m.pager.logType
		if m.typeInput.Placeholder == "" {
			m.typeInput.Placeholder = "all types"
		}
		m.typeInput.Focus()
		return nil
	case key.Matches(msg, k.SortNext, k.SortReverse):
		// Sorting reorders what is loaded; it is not a request for more
		// (paging stays as it was), and the status says what was sorted.
		cmd := m.Table.Update(msg)
		n := len(m.pager.entries)
		what := "sorted the " + strconv.Itoa(n) + " loaded entries only; scrolling loads more of the log"
		if m.pager.done {
			what = "sorted all " + strconv.Itoa(n) + " entries of the log"
		}
		return tea.Batch(cmd, page.Status(what))
	case key.Matches(msg, k.Refresh):
		return m.setType(m.pager.logType)
	}
	cmd := m.Table.Update(msg)
	// A key press is the user asking for more: scrolling resumes paging.
	m.autoPages, m.paused = 0, false
	return tea.Batch(cmd, m.maybeLoad())
}

func (m *Model) typeKeyPress(msg tea.KeyMsg) tea.Cmd {
	switch m.typeInput.Edit(msg) {
	case widgets.Cancelled:
		m.typing = false
	case widgets.Submitted:
		m.typing = false
		return m.setType(sanitizeType(m.typeInput.Value()))
	}
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
	r, ok := m.Table.Selected()
	if !ok {
		return
	}
	i, ok := m.byID[r.ID]
	if !ok {
		return
	}
	m.detail = true
	m.detailPane = widgets.NewPane(m.env.Theme, m.env.Keys)
	m.detailPane.SetSize(m.Width, max(m.Height-headerLines, 3))
	m.detailPane.SetContent(strings.TrimRight(detailText(&m.pager.entries[i]), "\n"))
}

func (m *Model) detailKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	if key.Matches(msg, k.Back, k.Enter) {
		m.detail, m.detailPane = false, nil
		return nil
	}
	m.detailPane.Update(msg)
	return nil
}

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
	case m.lastErr != nil && len(m.pager.entries) == 0:
		// failed, not empty: the error where the entries would be
		b.WriteString(m.env.Theme.Error.Render("The audit log could not be loaded:\n  " +
			sanitize.Line(m.lastErr.Error()) + "\n\nr retries"))
	default:
		tv := m.Table.View()
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
	loaded := strconv.Itoa(len(m.pager.entries)) + " loaded"
	switch {
	case m.pager.done:
		loaded += " (end of log)"
	case m.paused:
		loaded += " (paused: scroll to load more)"
	}
	parts = append(parts, loaded)
	if m.detail {
		parts = append(parts, "entry detail")
	}
	if s := m.loader.View(); s != "" {
		parts = append(parts, s+" loading")
	}
	if m.lastErr != nil {
		parts = append(parts, th.Error.Render(errorSummary(m.lastErr)))
	}
	line := strings.Join(parts, " · ")
	if m.Width > 0 {
		line = ansi.Truncate(line, m.Width, "…")
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

func (m *Model) detailView() string { return m.detailPane.View() }
