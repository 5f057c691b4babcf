package filestatusview

import (
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable is what `e` writes: the rows as shown (filtered, sorted), as
// the files' status records (ui/csvsafe/records) that the command line's
// `status IDS --csv`, or `status --journal --csv` for the journal's
// layout, writes too. The records are taken now, in Update: the tracker's
// files change in place at each poll, and the file is written later.
func (m *Model) ExportTable() widgets.TableExport {
	shown := m.Table.Export()
	now := m.env.Clock()
	header, record := records.FileStatusHeader(), records.FileStatus
	if m.asJournal() {
		header, record = records.JournalStatusHeader(), records.JournalStatus
	}
	recs := make(map[string][]string, len(m.tr.Files))
	for i := range m.tr.Files {
		f := &m.tr.Files[i]
		recs[f.ID] = record(f, now, m.opts.StuckAfter)
	}
	return shown.Records(header, func(i int) []string { return recs[shown.IDOf(i)] })
}
