package personview

import (
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// ExportTable implements the console's e (issue 42): the part on screen,
// under the columns `person EMAIL --csv --section PART` prints, its times
// in RFC 3339 UTC.
func (m *Model) ExportTable() widgets.TableExport {
	headers, rows := partRows(m.rep, m.part)
	cols := make([]widgets.Column, len(headers))
	for i, h := range headers {
		cols[i] = widgets.Column{Title: h}
	}
	out := make([]widgets.Row, len(rows))
	idx := make([]int, len(rows))
	for i, r := range rows {
		out[i], idx[i] = widgets.Row{ID: strconv.Itoa(i), Cells: r}, i
	}
	return widgets.ExportOf(cols, widgets.RowsOf(out), idx)
}

// Exports says e has a part to write: once the report is read.
func (m *Model) Exports() bool { return m.rep != nil }

// partRows is part's header and rows of rep.
func partRows(rep *person.Report, part int) ([]string, [][]string) {
	if rep == nil {
		return nil, nil
	}
	var rows [][]string
	switch part {
	case partReach:
		sole := map[string]bool{}
		for _, g := range rep.Reach.SoleManage {
			sole[g.ProjectID] = true
		}
		rows = [][]string{{"PROJECT", "ACCESS", "ONLY MANAGE", "PROJECT ID"}}
		for _, g := range rep.Reach.Grants {
			rows = append(rows, []string{g.ProjectName, g.AccessLevel, yes(sole[g.ProjectID]), g.ProjectID})
		}
	case partCreated:
		rows = [][]string{{"KIND", "NAME", "ID", "CREATED", "FILES", "USERS", "EVENTS", "DELETED"}}
		for _, p := range rep.Created.Projects {
			rows = append(rows, []string{"project", p.Name, p.ID, rfc3339(p.CreatedAt.Time), p.FilesCount.String(), "", "", ""})
		}
		for _, c := range rep.Created.Matters {
			rows = append(rows, []string{"matter", c.Name, c.ID, rfc3339(c.CreatedAt.Time), "", c.UserCount.String(), c.TotalEvents.String(), rfc3339(c.DeletedAt.Time)})
		}
	case partDeleted:
		rows = [][]string{{"PROJECT", "DELETED", "PURGE AT", "PURGES IN", "ENTRY ID"}}
		for _, e := range rep.Deleted.Entries {
			left, _ := purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, rep.At)
			rows = append(rows, []string{e.VaultProject.Name, rfc3339(e.DeletedAt.Time), rfc3339(e.RecycleBinPurgedScheduledAt.Time), left, e.ID})
		}
	default:
		rows = [][]string{{"TIME", "TYPE", "ADDRESS", "ENTRY ID"}}
		for _, e := range rep.Activity.Latest {
			rows = append(rows, []string{rfc3339(e.Time), e.Type, e.IP, e.ID})
		}
	}
	return rows[0], rows[1:]
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

// rfc3339 is a time as an export writes it, "" for none.
func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
