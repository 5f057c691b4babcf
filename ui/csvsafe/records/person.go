package records

import (
	"time"

	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/purge"
)

// PersonPart is one part of a person's report as CSV (`person EMAIL --csv
// --section PART`, the console's e on :person): its header and records,
// times in RFC 3339 UTC. part is reach, created, deleted or activity ("":
// none, nil).
func PersonPart(rep *person.Report, part string) ([]string, [][]string) {
	if rep == nil || part == "" {
		return nil, nil
	}
	var rows [][]string
	switch part {
	case "reach":
		sole := map[string]bool{}
		for _, g := range rep.Reach.SoleManage {
			sole[g.ProjectID] = true
		}
		rows = [][]string{{"PROJECT", "ACCESS", "ONLY MANAGE", "PROJECT ID"}}
		for _, g := range rep.Reach.Grants {
			rows = append(rows, []string{g.ProjectName, g.AccessLevel, yes(sole[g.ProjectID]), g.ProjectID})
		}
	case "created":
		rows = [][]string{{"KIND", "NAME", "ID", "CREATED", "FILES", "USERS", "EVENTS", "DELETED"}}
		for _, p := range rep.Created.Projects {
			rows = append(rows, []string{"project", p.Name, p.ID, rfc3339(p.CreatedAt.Time), p.FilesCount.String(), "", "", ""})
		}
		for _, c := range rep.Created.Matters {
			rows = append(rows, []string{"matter", c.Name, c.ID, rfc3339(c.CreatedAt.Time), "", c.UserCount.String(), c.TotalEvents.String(), rfc3339(c.DeletedAt.Time)})
		}
	case "deleted":
		rows = [][]string{{"PROJECT", "DELETED", "PURGE AT", "PURGES IN", "ENTRY ID"}}
		for _, e := range rep.Deleted.Entries {
			left, _ := purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, rep.At)
			rows = append(rows, []string{e.VaultProject.Name, rfc3339(e.DeletedAt.Time), rfc3339(e.RecycleBinPurgedScheduledAt.Time), left, e.ID})
		}
	case "activity":
		rows = [][]string{{"TIME", "TYPE", "ADDRESS", "ENTRY ID"}}
		for _, e := range rep.Activity.Latest {
			rows = append(rows, []string{rfc3339(e.Time), e.Type, e.IP, e.ID})
		}
	default:
		return nil, nil
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
