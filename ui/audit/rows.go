package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Column indexes of the audit table.
const (
	colTime = iota
	colType
	colUser
	colIP
	numCols
)

var columnTitles = [numCols]string{"Time (UTC)", "Type", "User", "IP"}

// timeLayout sorts lexically in time order, so sorting the column by its
// text is sorting by time.
const timeLayout = "2006-01-02 15:04:05"

// buildRow turns one entry into table cells; every server string is
// sanitised because audit data is written by whoever acted.
func buildRow(e *api.AuditEntry) [numCols]string {
	return [numCols]string{
		colTime: formatTime(e.Timestamp),
		colType: sanitize.Line(string(e.Type)),
		colUser: sanitize.Line(e.User),
		colIP:   sanitize.Line(e.IP),
	}
}

func formatTime(t api.Time) string {
	if t.IsZero() {
		return sanitize.Line(t.Raw)
	}
	return t.UTC().Format(timeLayout)
}

// detailText renders every field of an entry for the detail pane, with data
// as indented JSON. Sanitising after indenting keeps the line breaks json
// added while removing any escape sequence hidden in a value (json.Indent
// leaves \u001b escapes as they are, but raw bytes from a lenient server
// could still carry one).
func detailText(e *api.AuditEntry) string {
	var b strings.Builder
	field := func(name, value string) {
		fmt.Fprintf(&b, "%-11s %s\n", name+":", sanitize.Line(value))
	}
	field("id", e.ID)
	ts := e.Timestamp.Raw
	if !e.Timestamp.IsZero() {
		ts = e.Timestamp.UTC().Format(time.RFC3339Nano)
		if e.Timestamp.Raw != "" && e.Timestamp.Raw != ts {
			ts += "  (sent as " + e.Timestamp.Raw + ")"
		}
	}
	field("timestamp", ts)
	field("type", string(e.Type))
	field("user", e.User)
	field("ip", e.IP)
	field("user_agent", e.UserAgent)
	b.WriteString("data:\n")
	b.WriteString(indentData(e.Data))
	return b.String()
}

// indentData pretty-prints raw JSON; invalid JSON is shown as received
// (sanitised) rather than hidden, since an admin inspecting an odd entry
// wants to see exactly what the server sent.
func indentData(raw json.RawMessage) string {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return "  (none)\n"
	}
	var out bytes.Buffer
	if err := json.Indent(&out, trimmed, "  ", "  "); err != nil {
		return "  " + sanitize.Text(string(trimmed)) + "\n"
	}
	return "  " + sanitize.Text(out.String()) + "\n"
}

// observedTypes lists the types seen so far, sorted, for cycling the filter.
func observedTypes(seen map[api.AuditType]struct{}) []string {
	out := make([]string, 0, len(seen))
	for t := range seen {
		if t != "" {
			out = append(out, string(t))
		}
	}
	slices.Sort(out)
	return out
}

// nextType returns the filter after current when cycling: "" (all types),
// then each observed type in order, then back to "".
func nextType(types []string, current string) string {
	if len(types) == 0 {
		return ""
	}
	if current == "" {
		return types[0]
	}
	i := slices.Index(types, current)
	if i < 0 || i+1 >= len(types) {
		return ""
	}
	return types[i+1]
}
