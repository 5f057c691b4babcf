package recyclebinview

import "github.com/vaultdeck/vaultdeck/ui/widgets"

// ExportTable is what `e` writes. The entries table exports as shown (with
// the project ID and the purge time in UTC beside the countdown: Columns).
// The by-deleter table exports the entries behind its groups, each
// person's together in the groups' order as shown: counts and a relative
// "next purge" tell a reader of the file next week nothing they can act on.
func (m *Model) ExportTable() widgets.TableExport {
	if !m.grouped || m.set == nil {
		return m.Table.Export()
	}
	now := m.env.Clock()
	rank := map[string]int{}
	for i, who := range m.Table.VisibleIDs() { // the groups as filtered and sorted on screen
		rank[who] = i
	}
	byPerson := make([][]int32, len(rank))
	soon := m.soonFilter()
	for i := range m.set.Len() {
		e := m.set.at(i)
		if r, ok := rank[e.DeletedByUserEmail]; ok && soon.Kept(e, now) {
			byPerson[r] = append(byPerson[r], int32(i))
		}
	}
	idx := make([]int32, 0, m.shown.Len()) // not nil: rowsOf reads nil as "all"
	for _, ranks := range byPerson {
		idx = append(idx, ranks...)
	}
	rows := make([]int, len(idx))
	for i := range rows {
		rows[i] = i
	}
	cols := Columns()
	cols[ColPurgeIn].Live = PurgeLive(m.env.Clock)
	return widgets.ExportOf(cols, rowsOf(m.set, idx, now), rows)
}
