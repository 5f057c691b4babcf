package recyclebinview

import (
	"errors"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// auditLead is how long before a deletion the audit log opens: the entry
// selected is the first at or after it, so what the deleter did just
// before is on screen too.
const auditLead = time.Minute

// auditAround opens the audit log (A) around the selected entry's deletion,
// filtered by its deleter: ":audit TIME EMAIL", a route, so this view does
// not import the audit view.
func (m *Model) auditAround() tea.Cmd { return m.auditOf(m.selected()) }

// auditOf opens the audit log around e's deletion, by its deleter.
func (m *Model) auditOf(e *api.RecycleBinEntry) tea.Cmd {
	if e == nil {
		return nil
	}
	if e.DeletedAt.IsZero() {
		return page.Error(errors.New("this entry has no deletion time to open the audit log at"))
	}
	r := audit.Route{At: e.DeletedAt.UTC().Add(-auditLead), User: sanitize.Line(e.DeletedByUserEmail)}
	return page.OpenRoute("audit", r.Arg())
}

// auditFound is the deletion's audit evidence, for the detail pane.
type auditFound struct {
	view  page.ID
	entry string
	text  string
	short bool // the mirror stops before the deletion's time: a sync would tell more
}

// Target implements page.Scoped.
func (a auditFound) Target() page.ID { return a.view }

// deletionEvidence looks in the local mirror (whoami is asked, the audit
// log is not) for the service's api:vault_delete_project entries of the
// token's user at the entry's deletion time naming its project.
func (m *Model) deletionEvidence(e api.RecycleBinEntry) tea.Cmd {
	st, be, ctx, view := m.env.Journal, m.env.Backend, m.env.Context(), m.id
	remedy := m.env.ChoreHint(page.ChoreSyncAudit) // a key in the demo, else the shell command
	if st == nil || be == nil || e.DeletedAt.IsZero() {
		return nil
	}
	return func() tea.Msg {
		out := auditFound{view: view, entry: e.ID}
		log, who, err := audit.LogOf(ctx, be)
		if err != nil {
			out.text = "unknown (" + err.Error() + ")"
			return out
		}
		if e.DeletedByUserEmail != "" && !strings.EqualFold(e.DeletedByUserEmail, who.Email) {
			out.text = "deleted by " + sanitize.Line(e.DeletedByUserEmail) + ", not through this token: no vaultdeck record to prove"
			return out
		}
		at := e.DeletedAt.UTC()
		ev, err := audit.FindEvidence(ctx, st, log, audit.Action{Type: audit.TypeDeleteProject, User: who.Email,
			From: at, To: at, ProjectID: e.VaultProject.ID})
		if err != nil {
			out.text = "unknown (" + err.Error() + ")"
			return out
		}
		out.text, out.short = ev.Line(remedy), !ev.Covered
		for _, x := range ev.Entries {
			out.text += "\n" + x.Time.UTC().Format("2006-01-02 15:04:05") + " " + sanitize.Line(x.Type) + " " + sanitize.Line(x.ID)
		}
		return out
	}
}

// choreDone reads the evidence anew after an audit sync (run with the
// RunHere key its hint offered): what was found before the sync is
// forgotten, and the open detail's line is looked up again.
func (m *Model) choreDone(d page.TaskDone) tea.Cmd {
	if d.Name != string(page.ChoreSyncAudit) || d.Err != nil {
		return nil
	}
	m.audit, m.auditShort = nil, nil
	if m.detail == nil {
		return nil
	}
	return m.deletionEvidence(*m.detail)
}

// Chore implements page.ChoreHinter: the open detail's evidence asks for
// an audit sync when the mirror stops short of the deletion.
func (m *Model) Chore() page.Chore {
	if m.detail != nil && m.auditShort[m.detail.ID] {
		return page.ChoreSyncAudit
	}
	return page.ChoreNone
}
