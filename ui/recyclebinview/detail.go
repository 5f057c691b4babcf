package recyclebinview

import (
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// DetailFields lists every field of an entry and of its vault_project, as
// label/value pairs with the values sanitized.
func DetailFields(e api.RecycleBinEntry) [][2]string {
	t := func(v api.Time) string {
		if v.Invalid() {
			return sanitize.Line(v.Raw) + " (invalid)" // as sent, and said
		}
		if v.IsZero() {
			return ""
		}
		return v.UTC().Format("2006-01-02 15:04:05 MST")
	}
	p := e.VaultProject
	return [][2]string{
		{"id", sanitize.Line(e.ID)},
		{"resource_id", sanitize.Line(e.ResourceID)},
		{"resource_type", sanitize.Line(e.ResourceType)},
		{"recycle_bin_status", sanitize.Line(e.RecycleBinStatus)},
		{"deleted_at", t(e.DeletedAt)},
		{"recycle_bin_purged_scheduled_at", t(e.RecycleBinPurgedScheduledAt)},
		{"delete_source", sanitize.Line(e.DeleteSource)},
		{"deleted_source_id", sanitize.Line(e.DeletedSourceID)},
		{"deleted_by_user_email", sanitize.Line(e.DeletedByUserEmail)},
		{"vault_project.id", sanitize.Line(p.ID)},
		{"vault_project.name", sanitize.Line(p.Name)},
		{"vault_project.created_at", t(p.CreatedAt)},
		{"vault_project.creator_email", sanitize.Line(p.CreatorEmail)},
		{"vault_project.files_count", p.FilesCount.String()},
		{"vault_project.is_knowledge_base_project", strconv.FormatBool(p.IsKnowledgeBaseProject)},
	}
}

// detailText is the detail pane's text for a pane w cells wide: labels
// padded to one column where that leaves room for values, else each label
// on its own line above its value. Values are never cut: the pane wraps
// and scrolls.
func (m *Model) detailText(e api.RecycleBinEntry, w int) string {
	th := m.env.Theme
	var b strings.Builder
	b.WriteString(th.Title.Render(sanitize.Line(e.VaultProject.Name)))
	purge, tone := PurgeIn(e.RecycleBinPurgedScheduledAt.Time, m.env.Clock())
	style := th.Muted
	switch tone {
	case widgets.ToneWarn:
		style = th.Warn
	case widgets.ToneAlarm:
		style = th.Alarm
	}
	b.WriteString("\npurge " + style.Render(purgeWhen(purge)) + "\n")
	wide := w >= 42+38 // a label column, and a UUID beside it
	for _, f := range DetailFields(e) {
		if wide {
			b.WriteString("\n" + th.HelpKey.Render(padTo(f[0], 42)) + f[1])
		} else {
			b.WriteString("\n" + th.HelpKey.Render(f[0]) + "\n" + f[1])
		}
	}
	if m.env.Journal != nil {
		ev, ok := m.audit[e.ID]
		if !ok {
			ev = "looking in the local mirror…"
		}
		b.WriteString("\n\n" + th.HelpKey.Render("service audit log (A opens it)") + "\n" + ev)
	}
	return b.String()
}

// detailKey handles a key while the detail pane is open: esc and enter
// close it, A opens the audit log around the deletion shown (the pane
// says so), the rest scroll.
func (m *Model) detailKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case key.Matches(msg, k.Back, k.Enter):
		m.detail, m.pane = nil, nil
	case key.Matches(msg, k.AuditAround):
		return m.auditOf(m.detail)
	case key.Matches(msg, k.Person):
		return page.OpenPerson(m.detail.DeletedByUserEmail)
	default:
		m.pane.Update(msg)
	}
	return nil
}

// openDetail shows the selected entry in a scrolling pane.
func (m *Model) openDetail() {
	m.detail = m.selected()
	if m.detail == nil {
		return
	}
	m.pane = widgets.NewPane(m.env.Theme, m.env.Keys)
	m.sizeDetail()
}

// sizeDetail fits the pane to the view and lays its text out for the width.
func (m *Model) sizeDetail() {
	if m.detail == nil || m.pane == nil {
		return
	}
	m.pane.SetSize(m.Width, m.Height)
	m.pane.SetContent(m.detailText(*m.detail, m.Width-4))
}

func padTo(s string, w int) string {
	if len(s) >= w {
		return s + " "
	}
	return s + strings.Repeat(" ", w-len(s))
}

// purgeWhen is the countdown as a phrase: "in 3d04h", "overdue" (never
// "in overdue"), "not scheduled" (never "in ?").
func purgeWhen(countdown string) string {
	switch countdown {
	case "overdue":
		return "overdue"
	case "?":
		return "not scheduled"
	}
	return "in " + countdown
}
