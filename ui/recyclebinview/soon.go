package recyclebinview

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// The review of what is about to go: `p` keeps the entries purged within a
// week (overdue ones too), `b` groups the shown entries by who deleted them
// with counts (enter on a person shows theirs), and the info line carries a
// badge while anything is purged within 24 hours. All of it works on the
// loaded entries: no request.

// Column indexes of the by-deleter table; the next purge sits where the
// entries' countdown does, so PurgeLive draws both.
const (
	gColDeleter = iota
	gColEntries
	gColSoon
	gColNext
)

// groupColumns are the by-deleter table's columns; the count of soon
// purges is titled with the window it counts.
func groupColumns(window time.Duration) []widgets.Column {
	return []widgets.Column{
		{Title: "deleted by", Width: 20, Min: 8, Grow: 3, Priority: 3, Elide: widgets.ElideEmail},
		{Title: "projects", Width: 8, Numeric: true, Align: widgets.AlignRight},
		{Title: "within " + purge.FormatWindow(window), Width: 9, Numeric: true, Align: widgets.AlignRight},
		{Title: "next purge", Width: 10, Numeric: true, Align: widgets.AlignRight, Priority: 1, ExportAt: "next purge at (UTC)"},
	}
}

// narrowed reports whether the entries shown are a subset of those loaded.
func (m *Model) narrowed() bool { return m.soon || m.deleter != "" }

// refilter shows the loaded entries that pass the purging-soon and the
// deleter filters, and regroups.
func (m *Model) refilter() tea.Cmd {
	now := m.env.Clock()
	var idx []int32 // nil: all
	if m.narrowed() {
		// this session's own subset: ranks into the shared set, 4 bytes an entry
		idx = make([]int32, 0, m.set.Len()/4)
		f := m.filter()
		for i := range m.set.Len() {
			if f.Kept(m.set.at(i), now) {
				idx = append(idx, int32(i))
			}
		}
	}
	m.shown = rowsOf(m.set, idx, now)
	m.Tabs[0].Fix(ColDeletedBy, m.deleter != "") // the header says whose
	cmd := m.Tabs[0].SetSource(m.shown)
	return tea.Batch(cmd, m.regroup(now))
}

// filter is the view's filter, as the command and saved views read it
// (purge.Filter): the client matter asked of the service, the purging-soon
// window and the deleter kept here.
func (m *Model) filter() purge.Filter {
	f := purge.Filter{ClientMatter: m.query.ClientMatterID, DeletedBy: m.deleter}
	if m.soon {
		f.Within = m.soonWindow()
	}
	return f
}

// soonFilter is the purging-soon filter alone (the by-deleter table counts
// every deleter).
func (m *Model) soonFilter() purge.Filter { return purge.Filter{Within: m.filter().Within} }

// regroup builds the by-deleter rows from the loaded entries that pass the
// purging-soon filter, most entries first (purge.Grouper: the command's
// --by-deleter groups alike).
func (m *Model) regroup(now time.Time) tea.Cmd {
	gr := purge.NewGrouper(m.soonWindow())
	soon := m.soonFilter()
	for i := range m.set.Len() {
		if e := m.set.at(i); soon.Kept(e, now) {
			gr.Add(e, now)
		}
	}
	m.groupList = gr.Groups()
	rows := make([]widgets.Row, len(m.groupList))
	for i, g := range m.groupList {
		who := sanitize.Line(g.DeletedBy)
		if who == "" {
			who = "(unknown)"
		}
		next, tone := PurgeIn(g.NextPurge, now)
		rows[i] = widgets.Row{ID: g.DeletedBy,
			Cells: []string{who, strconv.Itoa(g.Projects), strconv.Itoa(g.Within), next},
			Nums:  []float64{0, float64(g.Projects), float64(g.Within), purgeKey(g.NextPurge)},
			Tones: []widgets.Tone{gColNext: tone}}
	}
	m.groups = len(m.groupList)
	return m.Tabs[1].SetRows(rows)
}

// urgent counts the loaded entries purged within 24 hours of now, overdue
// ones included.
func (m *Model) urgent(now time.Time) int {
	if m.set == nil {
		return 0
	}
	purges := m.set.purges // sorted once per answer, shared (binSet)
	limit := now.Add(purge.Urgent).Unix()
	return sort.Search(len(purges), func(i int) bool { return purges[i] > limit })
}

// toggleSoon turns the purging-soon filter on (soonest purge first) or off.
func (m *Model) toggleSoon() tea.Cmd {
	m.soon = !m.soon
	if m.soon {
		m.Tabs[0].SetSort(ColPurgeIn, false)
	}
	cmd := m.refilter()
	for _, t := range m.Tabs { // the soonest (and the most) first, in view: not wherever the old row went
		t.Move(-t.Len())
	}
	return cmd
}

// toggleGroups switches between the entries and the by-deleter table.
func (m *Model) toggleGroups() {
	m.grouped = !m.grouped
	m.ShowTab(map[bool]int{false: 0, true: 1}[m.grouped])
}

// openDeleter shows the entries of the person under the cursor.
func (m *Model) openDeleter() tea.Cmd {
	r, ok := m.Table.Selected()
	if !ok {
		return nil
	}
	m.deleter, m.fromGroups = r.ID, true
	m.toggleGroups()
	cmd := m.refilter()
	m.Tabs[0].Move(-m.Tabs[0].Len())
	return cmd
}

// closeDeleter is esc on one person's entries: one level back, to the
// people (the cursor still on that person: regroup keeps it by ID) when
// they were opened from there, else to all entries.
func (m *Model) closeDeleter() tea.Cmd {
	m.deleter = ""
	cmd := m.refilter()
	if m.fromGroups {
		m.fromGroups = false
		m.toggleGroups()
	}
	return cmd
}

// badge is the info line's warning while anything is purged within 24 hours.
func (m *Model) badge() string {
	n := m.urgent(m.env.Clock())
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("⚠ %d purge within 24h", n)
}
