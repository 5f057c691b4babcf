package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
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
func buildRow(e *store.AuditEntry) [numCols]string {
	t := ""
	if !e.Time.IsZero() {
		t = e.Time.UTC().Format(timeLayout)
	}
	return [numCols]string{
		colTime: t,
		colType: sanitize.Line(e.Type),
		colUser: sanitize.Line(e.User),
		colIP:   sanitize.Line(e.IP),
	}
}

// detailText renders every field of an entry for the detail pane, with data
// as indented JSON. Sanitising after indenting keeps the line breaks json
// added while removing any escape sequence hidden in a value (json.Indent
// leaves \u001b escapes as they are, but raw bytes from a lenient server
// could still carry one).
func detailText(je *store.AuditEntry) string {
	var e api.AuditEntry
	if err := json.Unmarshal(je.Raw, &e); err != nil || e.ID == "" {
		// what the mirror indexed, and the entry's JSON as it was sent
		e = api.AuditEntry{ID: je.ID, Type: api.AuditType(je.Type), User: je.User, IP: je.IP, Data: je.Raw}
		e.Timestamp.Time = je.Time
	}
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
