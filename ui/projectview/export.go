package projectview

import (
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable is what `e` writes: the open tab's rows as shown (filtered,
// sorted). The files tab writes them as the files' records, the command
// line's `files --csv` too (ui/csvsafe/records); the users tab as the
// users' records, `users --csv`'s (the owner's role from the creator).
func (m *Model) ExportTable() widgets.TableExport {
	shown := m.Table.Export()
	if m.Table != m.Tabs[tabFiles] {
		us, creator := m.userList, m.proj.CreatorEmail
		return shown.Records(records.UserHeader(), func(i int) []string { return records.User(&us[i], creator) })
	}
	// a local status filter rebuilds the rows from part of the listing:
	// each row finds its file by ID
	byID := make(map[string]*api.ProjectFile, len(m.fileList))
	for i := range m.fileList {
		byID[m.fileList[i].ID] = &m.fileList[i]
	}
	return shown.Records(records.FileHeader(), func(i int) []string {
		if f, ok := byID[shown.IDOf(i)]; ok {
			return records.File(f)
		}
		return nil
	})
}
