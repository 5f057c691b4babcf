package filestatusview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Query implements page.Querier: opened from the upload journal (and
// nothing pasted since), `status --journal` with the group filter (0-5)
// and the stuck threshold; else `status` with the IDs it tracks, each
// with the upload time its argument gave (ID@EPOCH).
func (m *Model) Query() page.Query {
	q := page.Query{Command: []string{"status"}}
	if m.asJournal() {
		q.Switch("journal", true)
		q.With("group", m.group.String())
	} else {
		ids := make([]string, 0, len(m.tr.Files))
		unsent := 0
		for _, f := range m.tr.Files {
			if f.Journal != "" {
				unsent++ // "journal:ROW": no file ID to ask about
				continue
			}
			if at, ok := m.given[f.ID]; ok {
				ids = append(ids, f.ID+"@"+strconv.FormatInt(at.Unix(), 10)) // the listing's upload time
				continue
			}
			ids = append(ids, f.ID)
		}
		if unsent > 0 {
			q.Unsaid = append(q.Unsaid, fmt.Sprintf("%s the service never confirmed: status takes file IDs, and with more pasted the journal's list is not --journal's", plural.Count(unsent, "journaled file")))
		}
		q.Command = append(q.Command, strings.Join(ids, ","))
		if m.group != allGroups {
			q.Unsaid = append(q.Unsaid, fmt.Sprintf("the group filter %q: status --group picks among the journal's files only; the command lists every file given", m.group.String()))
		}
	}
	if m.opts.StuckAfter != filestatus.DefaultStuckAfter {
		q.With("stuck-after", m.opts.StuckAfter.String())
	}
	m.Table.SayExact(&q, -1, false, m.ExportTable()) // --filter and --sort, when exact
	return q
}

// asJournal: the view shows the journal's files as it opened them (and
// nothing pasted since): its command is `status --journal`, its file the
// journal's records.
func (m *Model) asJournal() bool { return m.journalView && len(m.tr.Files) == m.journalFiles }

// FromQuery builds the page a saved view names (:NAME): the journal's
// unfinished files or the IDs given, with the group filter and threshold.
func FromQuery(env page.Env, q page.Query, opts Options) (page.Page, error) {
	arg := strings.Join(q.Command[1:], ",")
	var groupName string
	flags, text, sort := widgets.TakeRules(q.Flags)
	for _, f := range flags {
		switch f.Name {
		case "journal":
			if env.Journal == nil {
				return nil, fmt.Errorf("this session has no upload journal to list")
			}
		case "group":
			groupName = f.Value
		case "stuck-after":
			d, err := time.ParseDuration(f.Value)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("--stuck-after %q is not a duration such as 30m", f.Value)
			}
			opts.StuckAfter = d
		default:
			return nil, fmt.Errorf("the console's file status has no --%s; run the view headless with vaultdeck view", f.Name)
		}
	}
	if err := CheckArg(arg); err != nil {
		return nil, err
	}
	m := New(env, arg, opts).(*Model)
	for g := group(1); groupName != "" && g <= 5; g++ {
		if g.String() == groupName {
			m.group = g
		}
	}
	if err := m.Table.ApplyRules(text, sort); err != nil {
		return nil, err
	}
	return m, nil
}
