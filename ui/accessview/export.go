package accessview

import (
	"strconv"
	"strings"
	"sync"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable is what `e` writes: the tab's rows as shown (filtered,
// sorted) under the columns its command's --csv prints (`access people`,
// `access user EMAIL`, `access diff`), with what the screen leaves out: a
// person's user ID, how each project is reached (from the cached projects
// listing, as the command reads it: "unknown" when none is cached); the
// changes tab's as its command's records (ui/csvsafe/records).
func (m *Model) ExportTable() widgets.TableExport {
	shown := m.Table.Export()
	if m.data == nil {
		return shown
	}
	switch m.tab {
	case tabPeople:
		byEmail := make(map[string]access.Person, len(m.data.people))
		for _, p := range m.data.people {
			byEmail[strings.ToLower(p.Email)] = p
		}
		return shown.Records([]string{"NAME", "EMAIL", "PROJECTS", "MANAGE", "USER ID"}, func(i int) []string {
			p := byEmail[shown.IDOf(i)]
			return []string{p.Name, p.Email, strconv.Itoa(p.Projects), strconv.Itoa(p.Manage), p.UserID}
		})
	case tabPerson:
		email := m.person.Email
		byProject := map[string]store.AccessGrant{}
		var mine []store.AccessGrant
		for _, g := range m.data.grants {
			if strings.EqualFold(g.Email, email) {
				byProject[g.ProjectID] = g
				mine = append(mine, g)
			}
		}
		// the cache is read once, as the file is written (off the event loop)
		var once sync.Once
		var how map[string]string
		st, _ := m.store.(*store.Store)
		profile := m.profile
		return shown.Records([]string{"PROJECT", "ACCESS", "HOW", "PROJECT ID"}, func(i int) []string {
			once.Do(func() {
				if st != nil {
					how, _, _ = person.HowFromCache(person.StoreCache{Store: st, Profile: profile}, email, mine)
				}
			})
			g := byProject[shown.IDOf(i)]
			h := how[g.ProjectID]
			if h == "" {
				h = "unknown"
			}
			return []string{g.ProjectName, g.AccessLevel, h, g.ProjectID}
		})
	case tabChanges:
		// the changes as the snapshots hold them (row i is change i): the
		// cells on screen are cleaned for it, a line break made a space
		changes := m.data.changes
		return shown.Records(records.AccessDiffHeader(), func(i int) []string { return records.AccessDiff(&changes[i]) })
	}
	return shown
}
