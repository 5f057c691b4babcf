package projectsview

import (
	"fmt"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Query implements page.Querier: `projects --name` with the server-side
// name filter (/) in effect.
func (m *Model) Query() page.Query {
	q := page.Query{Command: []string{"projects"}}
	q.With("name", m.name)
	m.Table.Say(&q, -1, false)
	return q
}

// FromQuery builds the page a saved view names (:NAME).
func FromQuery(env page.Env, q page.Query) (page.Page, error) {
	name := ""
	for _, f := range q.Flags {
		if f.Name != "name" {
			return nil, fmt.Errorf("the console's projects view has no --%s; run the view headless with vaultdeck view", f.Name)
		}
		name = f.Value
	}
	return New(env, name), nil
}
