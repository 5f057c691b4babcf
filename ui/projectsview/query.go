package projectsview

import (
	"fmt"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Query implements page.Querier: `projects --name` with the server-side
// name filter (/) in effect.
func (m *Model) Query() page.Query {
	q := page.Query{Command: []string{"projects"}}
	q.With("name", m.name)
	m.Table.SayExact(&q, -1, false, m.ExportTable())
	return q
}

// FromQuery builds the page a saved view names (:NAME).
func FromQuery(env page.Env, q page.Query) (page.Page, error) {
	name := ""
	flags, text, sort := widgets.TakeRules(q.Flags)
	if text != "" {
		return nil, fmt.Errorf("the console's projects view filters by name on the server (--name), not by --filter; run the view headless with vaultdeck view")
	}
	for _, f := range flags {
		if f.Name != "name" {
			return nil, fmt.Errorf("the console's projects view has no --%s; run the view headless with vaultdeck view", f.Name)
		}
		name = f.Value
	}
	m := New(env, name).(*Model)
	if err := m.Table.ApplyRules("", sort); err != nil {
		return nil, err
	}
	return m, nil
}
