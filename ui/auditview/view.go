package auditview

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// headerLines is the number of lines View puts above the table when its
// header fits on one line (fitHeader follows it when it wraps).
const headerLines = 1

// documentedTypes are the log types the service's documentation names;
// the type picker offers them with the types seen (the set is open).
var documentedTypes = []string{"admin:fetch_workspace_users", "auth:login", "user:word_add_in_docx_drafting",
	"user:outlook_add_in_ask", "api:audit_log_fetch", "api:vault_delete_project", "api:client_matter_management", "api:vault_upload_files"}

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	switch {
	case m.prompt != "":
		return m.promptKey(msg)
	case m.pickingType:
		return m.pickKey(msg)
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
	case key.Matches(msg, k.Top): // g: the log's oldest entries
		m.following = false
		return m.oldest()
	case key.Matches(msg, k.Bottom): // G: the newest
		return m.newest()
	case key.Matches(msg, k.AuditJump):
		return m.open("time", "jump to (UTC): ", "", "2026-11-01, 2026-11-01 14:05, or an age: 36h, 7d")
	case key.Matches(msg, k.AuditUser):
		return m.open("user", "user e-mail (empty: all): ", m.offer(func(e *store.AuditEntry) string { return e.User }, m.filter.User), "")
	case key.Matches(msg, k.AuditIP):
		return m.open("ip", "address (empty: all): ", m.offer(func(e *store.AuditEntry) string { return e.IP }, m.filter.IP), "")
	case key.Matches(msg, k.Follow):
		return m.toggleFollow()
	case key.Matches(msg, k.OwnReads):
		return m.toggleOwn()
	case key.Matches(msg, k.Activity):
		return page.OpenRoute("activity", "")
	case key.Matches(msg, k.Person):
		return page.OpenPerson(m.offer(func(e *store.AuditEntry) string { return e.User }, ""))
	case key.Matches(msg, k.TypeCycle):
		m.pickingType = true
		m.picker = typeChoices(m.types)
		m.pickAt = max(slices.Index(m.picker, m.filter.Type), 0)
		return nil
	case key.Matches(msg, k.TypeFilter):
		return m.open("type", "log type (empty: all): ", m.filter.Type, "")
	case key.Matches(msg, k.SortNext, k.SortReverse):
		cmd := m.Table.Update(msg)
		return tea.Batch(cmd, page.Status("sorted the "+plural.Count(len(m.entries), "loaded entry")+" only"))
	case key.Matches(msg, k.Refresh):
		return tea.Batch(m.newest(), m.sync())
	}
	cmd := m.Table.Update(msg)
	if m.Table.Cursor() == 0 {
		m.newCount = 0
	}
	return tea.Batch(cmd, m.maybeMore())
}

// maybeMore reads the next window when the cursor nears the bottom (older
// entries) or, when the top is not the newest, the top.
func (m *Model) maybeMore() tea.Cmd {
	if m.Table.Len()-1-m.Table.Cursor() < nearEnd {
		if cmd := m.older(); cmd != nil {
			return cmd
		}
	}
	if m.Table.Cursor() < nearEnd {
		return m.newer()
	}
	return nil
}

// refilter lands on the newest entries that pass the new filter: from the
// mirror with no request once it is synced.
func (m *Model) refilter() tea.Cmd {
	m.pollCursor = ""
	m.fixColumns()
	return tea.Batch(m.newest(), page.Status("audit log: "+m.filterText()))
}

// fixColumns drops from the rows the columns the filter fixes (every row
// of "user X" is X's): the header says the value once (filterText).
func (m *Model) fixColumns() {
	m.Table.Fix(colType, m.filter.Type != "")
	m.Table.Fix(colUser, m.filter.User != "")
	m.Table.Fix(colIP, m.filter.IP != "")
}

func (m *Model) filterText() string {
	var parts []string
	if m.filter.Type != "" {
		parts = append(parts, "type "+m.filter.Type)
	}
	if m.filter.User != "" {
		parts = append(parts, "user "+m.filter.User)
	}
	if m.filter.IP != "" {
		parts = append(parts, "ip "+m.filter.IP)
	}
	if len(parts) == 0 {
		return "all entries"
	}
	return strings.Join(parts, ", ")
}

func (m *Model) openDetail() {
	r, ok := m.Table.Selected()
	if !ok {
		return
	}
	i, ok := m.byID[r.ID]
	if !ok || i < 0 {
		return
	}
	m.detail, m.detailID = true, r.ID
	m.detailPane = widgets.NewPane(m.env.Theme, m.env.Keys)
	m.detailPane.SetSize(m.Width, max(m.Height-m.TableView.Header, 3))
	text, partial := detailText(&m.entries[i])
	m.detailPane.SetContent(strings.TrimRight(text, "\n"))
	m.detailPane.SetNote(m.detailNote(partial))
}

// detailNote tells what the pane offers for the entry whole: always the
// copy (the pane wraps values, so selecting by hand is awkward), and the
// save where the session has local files (not over serve).
func (m *Model) detailNote(partial bool) string {
	k := m.env.Keys
	note := k.Copy.Help().Key + " copies the entry"
	if k.Export.Enabled() {
		note += ", " + k.Export.Help().Key + " saves it"
	}
	if partial {
		note = "drawn in part (…): " + note + " whole"
	}
	return note
}

// Document implements page.Documenter: with the detail open, y copies and
// e saves the entry as it was received (redacted on the way in), however
// much of it the pane draws.
func (m *Model) Document() (page.Document, bool) {
	i, ok := m.byID[m.detailID]
	if !m.detail || !ok || i < 0 || i >= len(m.entries) {
		return page.Document{}, false
	}
	e := &m.entries[i]
	body := append(bytes.TrimSpace(slices.Clip(e.Raw)), '\n')
	return page.Document{What: "entry " + sanitize.Line(e.ID), Stem: "audit-entry", Ext: "json", Body: body}, true
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

// View renders the header line and the table, the detail pane or the
// type picker; an open prompt takes the last line, with its error under it.
func (m *Model) View() string {
	var b strings.Builder
	b.WriteString(m.headerLine())
	b.WriteByte('\n')
	switch {
	case m.detail:
		b.WriteString(m.detailPane.View())
	case m.pickingType:
		b.WriteString(m.pickerView())
	case m.lastErr != nil && len(m.entries) == 0:
		b.WriteString(m.withPrompt(m.env.Theme.Error.Render("The audit log could not be loaded:\n  " +
			sanitize.Line(m.lastErr.Error()) + "\n\nr retries")))
	case len(m.entries) == 0 && m.loading == "":
		b.WriteString(m.withPrompt(m.env.Theme.Muted.Render("  no audit entries (" + m.filterText() + ")")))
	default:
		b.WriteString(m.withPrompt(m.Table.View()))
	}
	return b.String()
}

// headerLine is the lines above the table, wrapped rather than cut
// (widgets.Fit): the filter, the count, following and a failure's reason
// stay whole; the title and the mirror's time give way first.
func (m *Model) headerLine() string { return strings.Join(m.headerLines(), "\n") }

func (m *Model) headerLines() []string {
	th := m.env.Theme
	parts := []widgets.Part{widgets.Deco(th.Title.Render("Audit log")), widgets.Keep(m.filterText())}
	where := strconv.Itoa(len(m.entries) - m.ownHidden)
	switch {
	case m.inSpan:
		where += " in " + m.initial.At.Format("01-02 15:04:05") + "–" + m.initial.Until.Format("01-02 15:04:05")
	case m.atNewest && m.atStart:
		where += " (the whole log)"
	case m.atNewest:
		where += " newest first"
	case m.atStart:
		where += " down to the oldest"
	default:
		where += " shown"
	}
	if m.fromNote != "" {
		where += " " + m.fromNote
	}
	parts = append(parts, widgets.Keep(where))
	if s := m.ownNote(); s != "" {
		parts = append(parts, widgets.Keep(s))
	}
	if m.following {
		f := "following"
		if m.newCount > 0 {
			f = strconv.Itoa(m.newCount) + " new above · " + f
		}
		if m.caughtUp {
			f += " (caught up)"
		}
		parts = append(parts, widgets.Keep(f))
	}
	// the mirror's state is what gives way at 80 columns
	switch {
	case m.syncing:
		parts = append(parts, widgets.Deco(m.syncText()))
	case m.synced:
		parts = append(parts, widgets.Deco("mirror to "+m.mirror.Last.UTC().Format("01-02 15:04")))
	}
	if m.detail {
		parts = append(parts, widgets.Keep("entry detail"))
	}
	if s := m.loader.View(); s != "" {
		parts = append(parts, widgets.Keep(s+" "+m.loadText()))
	}
	if m.lastErr != nil {
		parts = append(parts, widgets.Keep(th.Error.Render(errorSummary(m.lastErr))))
	}
	return widgets.Fit(m.Width, parts...)
}

// fitHeader gives the table what the header leaves when it wraps.
func (m *Model) fitHeader() {
	if n := len(m.headerLines()); n != m.TableView.Header && m.Height > 0 {
		m.TableView.Header = n
		m.TableView.SetSize(m.Width, m.Height)
	}
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
	return "loading failed; r retries"
}
