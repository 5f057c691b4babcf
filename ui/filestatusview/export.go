package filestatusview

import (
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable is what `e` writes: the rows as shown (filtered, sorted).
// Of IDs given, as the files' status records, the command line's
// `status IDS --csv` too (ui/csvsafe/records); the journal's layout keeps
// its table's columns. The records are taken now, in Update: the tracker's
// files change in place at each poll, and the file is written later.
func (m *Model) ExportTable() widgets.TableExport {
	shown := m.Table.Export()
	if m.journalView && len(m.tr.Files) == m.journalFiles { // Query's `status --journal`
		return shown
	}
	recs := make(map[string][]string, len(m.tr.Files))
	for i := range m.tr.Files {
		f := &m.tr.Files[i]
		recs[f.ID] = records.FileStatus(f)
	}
	return shown.Records(records.FileStatusHeader(), func(i int) []string { return recs[shown.IDOf(i)] })
}
