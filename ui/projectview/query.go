package projectview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Query implements page.Querier: the users tab is `users PROJECT-ID`, the
// files tab `files PROJECT-ID` with the status filter in effect (f).
func (m *Model) Query() page.Query {
	if m.tab == tabUsers {
		q := page.Query{Command: []string{"users", m.proj.ID}}
		m.Table.SayExact(&q, -1, false, m.ExportTable())
		return q
	}
	q := page.Query{Command: []string{"files", m.proj.ID}}
	q.With("status", strings.ToLower(Statuses()[m.statusIdx]))
	m.Table.SayExact(&q, -1, false, m.ExportTable())
	return q
}

// FromQuery builds the page a saved view names (:NAME): its project, on
// the tab of its command, with its status filter.
func FromQuery(env page.Env, q page.Query) (page.Page, error) {
	if len(q.Command) != 2 {
		return nil, fmt.Errorf("%s takes one project ID", q.Command[0])
	}
	if err := CheckID(q.Command[1]); err != nil {
		return nil, err
	}
	m := New(env, q.Command[1]).(*Model)
	if q.Command[0] == "files" {
		m.tab = tabFiles
	}
	flags, text, sort := widgets.TakeRules(q.Flags)
	for _, f := range flags {
		switch {
		case f.Name == "status" && q.Command[0] == "files":
			i := slices.IndexFunc(Statuses(), func(s string) bool { return strings.EqualFold(s, f.Value) })
			if i < 0 {
				return nil, fmt.Errorf("the console filters files by one status at a time, not %q", f.Value)
			}
			m.statusIdx = i
		default:
			return nil, fmt.Errorf("the console's project view has no --%s; run the view headless with vaultdeck view", f.Name)
		}
	}
	if err := m.Tabs[m.tab].ApplyRules(text, sort); err != nil {
		return nil, err
	}
	return m, nil
}
