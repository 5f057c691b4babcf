package auditview

import (
	"maps"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable is what `e` writes: the entries as shown (filtered, sorted,
// the token's own reads hidden unless shown) as the log's records, the
// command line's `audit --csv` too (ui/csvsafe/records). The file is
// written off the event loop: it reads the entries and their index as
// they are now (a follow replaces m.entries, never edits it in place; the
// index is copied).
func (m *Model) ExportTable() widgets.TableExport {
	shown := m.Table.Export()
	entries, byID := m.entries, maps.Clone(m.byID)
	return shown.Records(records.AuditHeader(), func(i int) []string {
		if k, ok := byID[shown.IDOf(i)]; ok && k >= 0 && k < len(entries) {
			return records.Audit(&entries[k])
		}
		return nil
	})
}
