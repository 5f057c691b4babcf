package accessview

import (
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
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
	m.Table.SayExact(&q, -1, false, m.ExportTable())
	return q
}

// FromQuery returns the builder :NAME uses for a saved access view: the
// tab its command names, a person's projects once the snapshot is read.
func FromQuery(deps Deps) func(env page.Env, q page.Query) (page.Page, error) {
	return func(env page.Env, q page.Query) (page.Page, error) {
		flags, text, sort := widgets.TakeRules(q.Flags)
		if len(flags) > 0 {
			return nil, fmt.Errorf("the console's access view reads the last finished snapshot and has no --%s; run the view headless with vaultdeck view", flags[0].Name)
		}
		m := New(env, deps)
		tab, err := m.open(q.Command[1:])
		if err != nil {
			return nil, err
		}
		if err := m.Tabs[tab].ApplyRules(text, sort); err != nil {
			return nil, err
		}
		return m, nil
	}
}

// Route returns the builder of :access ARG, typed in the console: ARG is
// what follows `vaultdeck access` on the command line (people, diff, user
// EMAIL), so the console opens what the command shows. Check has refused
// any other ARG before the page is built.
func Route(deps Deps) func(env page.Env, arg string) page.Page {
	return func(env page.Env, arg string) page.Page {
		m := New(env, deps)
		_, _ = m.open(strings.Fields(arg)) // Check said no to what open refuses
		return m
	}
}

// Check refuses an :access ARG the view cannot show, saying what it takes.
func Check(arg string) error {
	_, _, err := parse(strings.Fields(arg))
	return err
}

// open shows the tab words name (after "access"); a person's projects are
// shown when the snapshot arrives (loaded), as after r.
func (m *Model) open(words []string) (int, error) {
	tab, email, err := parse(words)
	if err != nil {
		return 0, err
	}
	if tab == tabPerson {
		m.shown, m.person = tabPeople, access.Person{Email: email}
	}
	m.show(tab)
	return tab, nil
}

// parse reads the words after "access": none or people, diff, user EMAIL.
func parse(words []string) (tab int, email string, err error) {
	switch {
	case len(words) == 0 || (len(words) == 1 && words[0] == "people"):
		return tabPeople, "", nil
	case len(words) == 1 && words[0] == "diff":
		return tabChanges, "", nil
	case len(words) == 2 && words[0] == "user" && strings.Contains(words[1], "@"):
		return tabPerson, words[1], nil
	}
	return 0, "", fmt.Errorf("the console's access view shows access, access people, access diff or access user EMAIL (an e-mail address), not %q", sanitize.Line(strings.Join(append([]string{"access"}, words...), " ")))
}
