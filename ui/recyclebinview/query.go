package recyclebinview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Query implements page.Querier: `recycle-bin` with the filters in effect
// lists the entries shown (issue 31). With a purge window both print the
// soonest purge first; without one, newest deletion first.
func (m *Model) Query() page.Query {
	if m.grouped {
		return m.groupQuery()
	}
	q := page.Query{Command: []string{"recycle-bin"}}
	f := m.filter()
	f.Name = m.query.Name // a saved view's --name, asked of the service
	t := m.Tabs[0]
	byName := false
	if text := t.Filter(); text != "" && m.nameOnly(text) && strings.Contains(strings.ToLower(text), strings.ToLower(f.Name)) {
		// the / filter matched names alone (within the service's): --name says it
		f.Name, byName = text, true
	}
	for _, fl := range purge.FilterFlags() {
		q.With(fl.Name, f.Get(fl.Name))
	}
	col, desc := -1, false
	if m.soon {
		col = ColPurgeIn
	}
	if byName {
		t.SaySortExact(&q, col, desc, m.ExportTable()) // the filter is --name: the sort alone
	} else {
		t.SayExact(&q, col, desc, m.ExportTable()) // --filter and --sort, when exact
	}
	return q
}

// groupQuery is the by-deleter table's query: `recycle-bin --by-deleter`
// with the filters the groups are of (what was asked of the service and
// the purge window; not the deleter chosen, nor the entries' / filter),
// and the group table's own / filter and sort said as the entries' are.
func (m *Model) groupQuery() page.Query {
	q := page.Query{Command: []string{"recycle-bin"}}
	f := m.soonFilter()
	f.ClientMatter, f.Name = m.query.ClientMatterID, m.query.Name
	for _, fl := range purge.FilterFlags() {
		q.With(fl.Name, f.Get(fl.Name))
	}
	q.Switch("by-deleter", true)
	m.Tabs[1].SayExact(&q, -1, false, m.ExportTable())
	return q
}

// FromQuery builds the page a saved view's query names (:NAME).
func FromQuery(env page.Env, q page.Query) (page.Page, error) {
	if len(q.Command) != 1 {
		return nil, fmt.Errorf("recycle-bin takes no argument")
	}
	m := New(env, "").(*Model)
	var filter purge.Filter
	grouped := false
	flags, text, sort := widgets.TakeRules(q.Flags) // the / filter and sort, said exactly (SayExact)
	for _, f := range flags {
		if f.Name == "by-deleter" && f.Switch {
			grouped = true // reopened on the by-deleter table, as saved
			continue
		}
		known := slices.ContainsFunc(purge.FilterFlags(), func(fl purge.FilterFlag) bool { return fl.Name == f.Name })
		if !known {
			return nil, fmt.Errorf("the console's recycle bin has no --%s; run the view headless with vaultdeck view", f.Name)
		}
		if err := filter.Set(f.Name, f.Value); err != nil {
			return nil, fmt.Errorf("--%s: %w", f.Name, err)
		}
	}
	if err := filter.Check(); err != nil {
		return nil, fmt.Errorf("--%s: %w", purge.FlagClientMatter, err)
	}
	m.query.ClientMatterID, m.deleter = filter.ClientMatter, filter.DeletedBy
	m.query.Name = filter.Name // the service's name search, as the command asks it
	if d := filter.Within; d > 0 {
		m.soon, m.window = true, d
		m.Tabs[1].SetColumns(groupColumns(d)) // its count says the window too
		m.Tabs[0].SetSort(ColPurgeIn, false)
	}
	if grouped {
		if filter.DeletedBy != "" {
			return nil, fmt.Errorf("--by-deleter groups every deleter: it does not combine with --deleted-by")
		}
		m.toggleGroups()
	}
	if err := m.Table.ApplyRules(text, sort); err != nil {
		return nil, err
	}
	return m, nil
}

// soonWindow is the purging-soon filter's window: p's week, or the one a
// saved view asked for.
func (m *Model) soonWindow() time.Duration {
	if m.window > 0 {
		return m.window
	}
	return purge.Soon
}

// nameOnly says the / filter text shows exactly the entries whose project
// name holds it (case-insensitive, as the service's name search): then
// --name lists the rows shown; where another column also matched (a
// deleter's address, a date), no flag says the filter.
func (m *Model) nameOnly(text string) bool {
	t := m.Tabs[0]
	shown := map[string]bool{}
	for _, id := range t.VisibleIDs() {
		shown[id] = true
	}
	want := strings.ToLower(text)
	n := 0
	for i := range m.shown.Len() {
		e := m.shown.entry(i)
		if strings.Contains(strings.ToLower(e.VaultProject.Name), want) != shown[e.ID] {
			return false
		}
		n++
	}
	return n > 0 && len(shown) > 0
}
