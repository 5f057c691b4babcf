package recyclebin

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// DetailFields lists every field of an entry and of its vault_project, as
// label/value pairs with the values sanitized.
func DetailFields(e api.RecycleBinEntry) [][2]string {
	t := func(v api.Time) string {
		if v.IsZero() {
			return sanitize.Line(v.Raw)
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
		{"vault_project.files_count", strconv.FormatInt(int64(p.FilesCount), 10)},
		{"vault_project.is_knowledge_base_project", strconv.FormatBool(p.IsKnowledgeBaseProject)},
	}
}

func (m *Model) detailView(e api.RecycleBinEntry) string {
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
	b.WriteString("  purge in " + style.Render(purge) + "\n\n")
	w := max(m.width-6, 20)
	for _, f := range DetailFields(e) {
		line := th.HelpKey.Render(padTo(f[0], 42)) + f[1]
		b.WriteString(ansi.Truncate(line, w, "…") + "\n")
	}
	b.WriteString("\n" + th.Muted.Render("esc closes"))
	return th.Border.Render(b.String())
}

func padTo(s string, w int) string {
	if len(s) >= w {
		return s + " "
	}
	return s + strings.Repeat(" ", w-len(s))
}
