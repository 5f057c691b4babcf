package projectsview

import (
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable is what `e` writes: the rows as shown (filtered, sorted) as
// the projects' records, the command line's `projects --csv` too
// (ui/csvsafe/records: the same columns, order and cells).
func (m *Model) ExportTable() widgets.TableExport {
	ps := m.data.Projects // the table's source, row i project i
	return m.Table.Export().Records(records.ProjectHeader(), func(i int) []string { return records.Project(&ps[i]) })
}
