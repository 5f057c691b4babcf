package audit

import (
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Query implements page.Querier: `audit` with the type, user and address
// filters in effect, over the stretch of time the entries held span
// (--since the oldest, --until just after the newest, --limit 0: all of
// it), newest first as the view lists them.
func (m *Model) Query() page.Query {
	q := page.Query{Command: []string{"audit"}}
	q.With("type", m.filter.Type)
	q.With("user", m.filter.User)
	q.With("ip", m.filter.IP)
	var oldest, newest time.Time
	for _, e := range m.entries {
		if e.Time.IsZero() {
			continue
		}
		if oldest.IsZero() || e.Time.Before(oldest) {
			oldest = e.Time
		}
		if e.Time.After(newest) {
			newest = e.Time
		}
	}
	if !oldest.IsZero() {
		q.With("since", oldest.UTC().Format(time.RFC3339Nano))
		q.With("until", newest.Add(time.Nanosecond).UTC().Format(time.RFC3339Nano))
		q.With("limit", "0")
		q.Switch("newest", true)
	}
	q.Switch("hide-own-reads", !m.showOwn) // the view hides them until h
	q.Unsaid = m.Table.Unsaid(-1, false)
	return q
}

// FromQuery builds the page a saved view names (:NAME), as `:audit`
// would: its filters, and its stretch of time (FROM..UNTIL) or the time
// to land at (--since alone).
func FromQuery(env page.Env, q page.Query) (page.Page, error) {
	var words []string
	since, _ := q.Value("since")
	until, _ := q.Value("until")
	for _, f := range q.Flags {
		switch f.Name {
		case "type", "user", "ip":
			if strings.ContainsAny(f.Value, " \t") {
				return nil, fmt.Errorf("--%s %q: the console's filters take one word", f.Name, f.Value)
			}
			words = append(words, f.Value)
		case "since", "until", "limit", "newest", "hide-own-reads":
		default:
			return nil, fmt.Errorf("the console's audit view has no --%s; run the view headless with vaultdeck view", f.Name)
		}
	}
	switch {
	case since != "" && until != "":
		words = append(words, since+".."+until)
	case since != "":
		words = append(words, since)
	case until != "":
		words = append(words, until)
	}
	arg := strings.Join(words, " ")
	if _, err := parseRoute(arg, env.Clock()); err != nil {
		return nil, err
	}
	m := New(env, arg).(*Model)
	_, hide := q.Value("hide-own-reads")
	m.showOwn = !hide
	return m, nil
}
