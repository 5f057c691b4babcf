package recyclebinview

import (
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable is what `e` writes: what is on screen. The entries table
// writes its rows as shown (filtered, sorted) as the bin's records, the
// command line's `recycle-bin --csv` too (ui/csvsafe/records: the same
// columns, order and cells). The by-deleter table writes its group rows
// as shown, with the next purge's time beside its countdown: the records
// of `recycle-bin --by-deleter --csv`.
func (m *Model) ExportTable() widgets.TableExport {
	shown := m.Table.Export()
	if m.set == nil {
		return shown
	}
	now, src := m.env.Clock(), m.shown
	if m.grouped {
		gs := m.groupList
		return shown.Records(records.GroupHeader(m.soonWindow()), func(i int) []string { return records.Group(&gs[i], now) })
	}
	return shown.Records(records.BinHeader(), func(i int) []string { return records.Bin(src.entry(i), now) })
}
