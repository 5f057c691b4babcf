package auditview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
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
// as indented JSON drawn within widgets.DetailJSON (a hostile entry nested
// 9,000 deep took 2 GB through json.Indent and the pane's wrapping), and
// reports whether anything was left out (y copies the entry whole, e saves
// it). Sanitising after indenting keeps the line breaks while removing any
// escape sequence hidden in a value (\u001b escapes stay text, but raw bytes
// from a lenient server could still carry one).
func detailText(je *store.AuditEntry) (string, bool) {
	var e api.AuditEntry
	if err := json.Unmarshal(je.Raw, &e); err != nil || e.ID == "" {
		// what the mirror indexed, and the entry's JSON as it was sent
		e = api.AuditEntry{ID: je.ID, Type: api.AuditType(je.Type), User: je.User, IP: je.IP, Data: je.Raw}
		e.Timestamp.Time = je.Time
	}
	lim := widgets.DetailJSON
	var b strings.Builder
	partial := false
	field := func(name, value string) {
		shown, rest := clip(value, lim.String)
		fmt.Fprintf(&b, "%-11s %s", name+":", sanitize.Line(shown))
		if rest > 0 {
			fmt.Fprintf(&b, "… (%s more)", humanize.Bytes(uint64(rest)))
			partial = true
		}
		b.WriteByte('\n')
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
	data, cut := indentData(e.Data, lim)
	b.WriteString(data)
	return b.String(), partial || cut
}

// clip is the start of s within n bytes, cut at a character, and how many
// bytes are left.
func clip(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], len(s) - cut
}

// indentData pretty-prints raw JSON within lim; invalid JSON is shown as
// received (sanitised, cut the same way) rather than hidden, since an admin
// inspecting an odd entry wants to see exactly what the server sent.
func indentData(raw json.RawMessage, lim widgets.JSONLimits) (string, bool) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return "  (none)\n", false
	}
	out, partial := widgets.BoundedJSON(trimmed, "  ", lim)
	return sanitize.Text(out) + "\n", partial
}
