package activityview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Query implements page.Querier (issue 42): the view is `audit stats` over
// the same range, said as an age so that a saved view is the last AGE
// whenever it runs, as the view is; the buckets and the type as shown.
// The stats are one object, no listing: C's line prints them as JSON.
func (m *Model) Query() page.Query {
	q := page.Query{Command: []string{"audit", "stats"}} // --csv: the buckets, e's file
	q.With("since", ageWord(m.age))
	q.With("by", byWord(m.by))
	q.With("type", m.typ)
	return q
}

// ageWord is d as the age the command reads (7d, 36h, 90m).
func ageWord(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

func byWord(d time.Duration) string {
	if d >= 24*time.Hour {
		return "day"
	}
	return "hour"
}

// FromQuery builds the page a saved view names (:NAME), as `:activity
// AGE BY TYPE` would.
func FromQuery(env page.Env, q page.Query) (page.Page, error) {
	var words []string
	for _, f := range q.Flags {
		switch f.Name {
		case "since":
			if !isAge(strings.ToLower(f.Value)) {
				return nil, fmt.Errorf("--since %q: the console's activity view shows a range back from now (an age such as 7d)", f.Value)
			}
			words = append(words, f.Value)
		case "by":
			by := map[string]string{"h": "hour", "hour": "hour", "d": "day", "day": "day"}[f.Value]
			if by == "" {
				return nil, fmt.Errorf("--by must be hour or day, not %q", f.Value)
			}
			words = append(words, by)
		case "type":
			if strings.ContainsAny(f.Value, " \t") || f.Value == "hour" || f.Value == "day" || isAge(f.Value) {
				return nil, fmt.Errorf("--type %q: the console's activity view takes one word that is no age or bucket", f.Value)
			}
			words = append(words, f.Value)
		default:
			return nil, fmt.Errorf("the console's activity view has no --%s; run the view headless with vaultdeck view", f.Name)
		}
	}
	return New(env, strings.Join(words, " ")), nil
}

// ExportTable implements the console's e (issue 42): the histogram's
// buckets, oldest first, as `audit stats --csv` writes them
// (ui/csvsafe/records).
func (m *Model) ExportTable() widgets.TableExport {
	var rows []widgets.Row
	var idx []int
	if m.stats != nil {
		for i := range m.stats.Buckets {
			rows = append(rows, widgets.Row{ID: strconv.Itoa(i)})
			idx = append(idx, i)
		}
	}
	ex := widgets.ExportOf(nil, widgets.RowsOf(rows), idx)
	if m.stats == nil {
		return ex
	}
	bs := m.stats.Buckets
	return ex.Records(records.BucketHeader(), func(i int) []string { return records.Bucket(bs[i]) })
}

// Exports says e has buckets to write: once the stats are read.
func (m *Model) Exports() bool { return m.stats != nil }
