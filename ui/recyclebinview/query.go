package recyclebinview

import (
	"fmt"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Query implements page.Querier: `recycle-bin` with the filters in effect
// lists the entries shown (issue 31). With a purge window both print the
// soonest purge first; without one, newest deletion first.
func (m *Model) Query() page.Query {
	q := page.Query{Command: []string{"recycle-bin"}}
	q.With("client-matter", m.query.ClientMatterID)
	if m.soon {
		q.With("purging-within", purge.FormatWindow(m.soonWindow()))
	}
	q.With("deleted-by", m.deleter)
	col, desc := -1, false
	if m.soon {
		col = ColPurgeIn
	}
	q.Unsaid = m.Tabs[0].Unsaid(col, desc)
	if m.grouped {
		q.Unsaid = append(q.Unsaid, "the grouping by who deleted (b): the command lists the entries themselves")
	}
	return q
}

// FromQuery builds the page a saved view's query names (:NAME).
func FromQuery(env page.Env, q page.Query) (page.Page, error) {
	if len(q.Command) != 1 {
		return nil, fmt.Errorf("recycle-bin takes no argument")
	}
	m := New(env, "").(*Model)
	for _, f := range q.Flags {
		switch f.Name {
		case "client-matter":
			if !api.IsUUID(f.Value) {
				return nil, fmt.Errorf("--client-matter %q is not a client-matter ID", f.Value)
			}
			m.query.ClientMatterID = f.Value
		case "purging-within":
			d, err := purge.ParseWindow(f.Value)
			if err != nil {
				return nil, fmt.Errorf("--purging-within: %w", err)
			}
			m.soon, m.window = true, d
			m.Tabs[1].SetColumns(groupColumns(d)) // its count says the window too
			m.Tabs[0].SetSort(ColPurgeIn, false)
		case "deleted-by":
			m.deleter = f.Value
		default:
			return nil, fmt.Errorf("the console's recycle bin has no --%s; run the view headless with vaultdeck view", f.Name)
		}
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
