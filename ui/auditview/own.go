package auditview

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// The view's own reads of the log (api:audit_log_fetch entries of this
// token's user) are hidden unless asked for (h). Every window the view
// reads writes one more, so at open they filled the first twenty-odd
// rows, pushing what people did off screen; they are the trace of this
// investigation, never what it looks for. Hidden, they are counted in the
// header, so the trail never looks whole when it is not; h shows them
// (muted) for the one who wants the log exactly as the service has it.

// tableRows is the table's rows for the entries held: all of them, less
// the own reads while they are hidden (counted in ownHidden).
func (m *Model) tableRows() []widgets.Row {
	rows := make([]widgets.Row, 0, len(m.entries))
	m.ownHidden = 0
	for i := range m.entries {
		e := &m.entries[i]
		own := audit.IsOwnRead(*e, m.self)
		if own && !m.showOwn {
			m.ownHidden++
			continue
		}
		cells := buildRow(e)
		r := widgets.Row{ID: e.ID, Cells: cells[:]}
		if own {
			// shown on request, but quieter than what people did
			r.Tones = ownTones[:]
		}
		rows = append(rows, r)
	}
	return rows
}

// shownOf counts the entries of es the table shows.
func (m *Model) shownOf(es []store.AuditEntry) int {
	if m.showOwn {
		return len(es)
	}
	n := 0
	for _, e := range es {
		if !audit.IsOwnRead(e, m.self) {
			n++
		}
	}
	return n
}

var ownTones = [numCols]widgets.Tone{widgets.ToneMuted, widgets.ToneMuted, widgets.ToneMuted, widgets.ToneMuted}

// toggleOwn shows or hides the own reads (h), the cursor staying on its
// entry.
func (m *Model) toggleOwn() tea.Cmd {
	m.showOwn = !m.showOwn
	cmd := m.Table.SetRows(m.tableRows())
	say := "this token's own reads of the log are hidden (h shows them)"
	if m.showOwn {
		say = "this token's own reads of the log are shown, muted (h hides them)"
	}
	return tea.Batch(cmd, page.Status(say), m.fill())
}

// fill reads older entries while own reads hidden from what was read
// leave the table shorter than the screen and the log's start is not
// reached. A table short for another reason (a rare user) is not read on
// unasked: on a rate-limited workspace that would spend the budget for
// nobody. Nor is a saved view's count (count.go): its rows are those the
// view was saved with.
func (m *Model) fill() tea.Cmd {
	if m.showOwn || m.ownHidden == 0 || m.Table.Len() >= m.Height || m.count != noCount {
		return nil
	}
	return m.older()
}

// ownNote is the header's count of hidden own reads ("" when none).
func (m *Model) ownNote() string {
	if m.showOwn || m.ownHidden == 0 {
		return ""
	}
	return plural.Count(m.ownHidden, "own read") + " hidden"
}
