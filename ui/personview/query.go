package personview

import (
	"fmt"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Query implements page.Querier (issue 42): the view is `vaultdeck person
// EMAIL`, the same report read the same way (local data first, the
// fewest requests for what it lacks); C's line prints the part on screen
// as CSV (--csv --section PART), as e writes it.
func (m *Model) Query() page.Query {
	return page.Query{Command: []string{"person", m.email}, Format: []string{"--csv", "--section", partNames[m.part]}}
}

// FromQuery returns the builder :NAME uses for a saved person view.
func FromQuery(deps Deps) func(env page.Env, q page.Query) (page.Page, error) {
	return func(env page.Env, q page.Query) (page.Page, error) {
		if len(q.Command) != 2 {
			return nil, fmt.Errorf("person takes one e-mail address")
		}
		if err := CheckArg(q.Command[1]); err != nil {
			return nil, err
		}
		if len(q.Flags) > 0 {
			return nil, fmt.Errorf("the console's person view has no --%s; run the view headless with vaultdeck view", q.Flags[0].Name)
		}
		return New(env, deps, q.Command[1]), nil
	}
}
