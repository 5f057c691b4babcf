package access

import (
	"fmt"
	"strings"

	review "github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Query implements page.Querier (issue 31): the people tab is `access
// people`, a person's projects `access user EMAIL`, the changes `access
// diff`. No --snapshot is pinned: the view reads the last finished
// snapshot (and the changes from the one before), as the commands do by
// default, so a saved view follows the next crawl as the view does.
func (m *Model) Query() page.Query {
	var q page.Query
	switch m.tab {
	case tabPerson:
		q.Command = []string{"access", "user", m.person.Email}
	case tabChanges:
		q.Command = []string{"access", "diff"}
	default:
		q.Command = []string{"access", "people"}
	}
	q.Unsaid = m.Table.Unsaid(-1, false)
	return q
}

// FromQuery returns the builder :NAME uses for a saved access view: the
// tab its command names, a person's projects once the snapshot is read.
func FromQuery(deps Deps) func(env page.Env, q page.Query) (page.Page, error) {
	return func(env page.Env, q page.Query) (page.Page, error) {
		if len(q.Flags) > 0 {
			return nil, fmt.Errorf("the console's access view reads the last finished snapshot and has no --%s; run the view headless with vaultdeck view", q.Flags[0].Name)
		}
		m := New(env, deps)
		switch {
		case len(q.Command) == 2 && q.Command[1] == "people":
		case len(q.Command) == 2 && q.Command[1] == "diff":
			m.show(tabChanges)
		case len(q.Command) == 3 && q.Command[1] == "user" && strings.Contains(q.Command[2], "@"):
			// shown when the snapshot arrives (loaded), as after r
			m.shown, m.person = tabPeople, review.Person{Email: q.Command[2]}
			m.show(tabPerson)
		default:
			return nil, fmt.Errorf("the console's access view does not show %q", strings.Join(q.Command, " "))
		}
		return m, nil
	}
}
