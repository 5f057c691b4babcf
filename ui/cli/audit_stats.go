package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// AuditStatsOptions is `vaultdeck audit stats`'s command line.
type AuditStatsOptions struct {
	Since, Until string // as `audit`'s
	By           string // "hour", "day" or "" (by the range's length)
	Type         string
}

// statsByDayAfter: ranges longer than this are counted by day unless --by
// says otherwise (72 hourly bars is as many as a terminal shows).
const statsByDayAfter = 72 * time.Hour

// auditStats prints activity at a glance from the mirror alone.
func (r *runner) auditStats(ctx context.Context, o AuditStatsOptions) int {
	if r.g.JSONL || r.g.CSV {
		return r.usage("audit stats prints a table, or one JSON object with --json")
	}
	now := time.Now()
	if r.env.Clock != nil {
		now = r.env.Clock.Now()
	}
	q := audit.StatsRange{Type: strings.TrimSpace(o.Type), Until: now.UTC()}
	var err error
	if q.Since, err = parseWhen(o.Since, now); err != nil || q.Since.IsZero() {
		return r.usage("--since: %v", cmpErr(err, "a start is needed (e.g. 7d)"))
	}
	if o.Until != "" {
		if q.Until, err = parseWhen(o.Until, now); err != nil {
			return r.usage("--until: %v", err)
		}
	}
	if !q.Since.Before(q.Until) {
		return r.usage("--since (%s) must be before --until (%s)", fmtUTC(q.Since), fmtUTC(q.Until))
	}
	switch strings.ToLower(strings.TrimSpace(o.By)) {
	case "":
		q.By = time.Hour
		if q.Until.Sub(q.Since) > statsByDayAfter {
			q.By = 24 * time.Hour
		}
	case "hour", "h":
		q.By = time.Hour
	case "day", "d":
		q.By = 24 * time.Hour
	default:
		return r.usage("--by must be hour or day, not %q", sanitize.Line(o.By))
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	st, err := r.openStore()
	if err != nil {
		return r.fail(fmt.Errorf("the audit mirror lives in the local database, which could not be opened: %w", err))
	}
	defer st.Close()
	log, err := audit.MirrorLog(ctx, st, c)
	if err != nil {
		return r.fail(err)
	}
	state, err := st.AuditState(ctx, log)
	if err != nil {
		return r.fail(err)
	}
	if !state.Started() {
		return r.fail(audit.ErrNoMirror)
	}
	s, err := audit.ReadStats(ctx, st, log, q)
	if errors.Is(err, audit.ErrStatsRange) {
		return r.usage("%v", err)
	}
	if err != nil {
		return r.fail(err)
	}
	if r.g.JSON {
		err = writeStatsJSON(r.env.Stdout, s, state)
	} else {
		err = writeStatsTable(r.env.Stdout, s, state)
	}
	if err != nil {
		return r.fail(err)
	}
	return ExitOK
}

func cmpErr(err error, otherwise string) error {
	if err != nil {
		return err
	}
	return errors.New(otherwise)
}

func byName(d time.Duration) string {
	if d >= 24*time.Hour {
		return "day"
	}
	return "hour"
}

// statsJSON is --json's object. Its field names are a promise to scripts:
// add, never rename.
type statsJSON struct {
	Since     time.Time   `json:"since"`
	Until     time.Time   `json:"until"`
	By        string      `json:"by"`
	Type      string      `json:"type"`
	Total     int         `json:"total"`
	Counted   int         `json:"counted"`
	Buckets   []bucketOut `json:"buckets"`
	TopUsers  []tallyOut  `json:"top_users"`
	TopIPs    []tallyOut  `json:"top_ips"`
	TopTypes  []tallyOut  `json:"top_types"`
	Marks     []markOut   `json:"marks"`
	MoreMarks int         `json:"more_marks"`
	Mirror    mirrorOut   `json:"mirror"`
}

type bucketOut struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Count int       `json:"count"`
}

type tallyOut struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

type markOut struct {
	Kind  string    `json:"kind"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Type  string    `json:"type,omitempty"`
	User  string    `json:"user,omitempty"`
	IP    string    `json:"ip,omitempty"`
	Count int       `json:"count"`
	Why   string    `json:"why"`
}

type mirrorOut struct {
	Entries int64     `json:"entries"`
	Last    time.Time `json:"last"`
}

func tallies(ts []audit.Tally) []tallyOut {
	out := make([]tallyOut, len(ts))
	for i, t := range ts {
		out[i] = tallyOut{t.Name, t.Count}
	}
	return out
}

func writeStatsJSON(w io.Writer, s audit.Stats, st store.AuditMirrorState) error {
	o := statsJSON{Since: s.Since, Until: s.Until, By: byName(s.By), Type: s.Type, Total: s.Total, Counted: s.Counted,
		Buckets: make([]bucketOut, len(s.Buckets)), TopUsers: tallies(s.Users), TopIPs: tallies(s.IPs), TopTypes: tallies(s.Types),
		Marks: make([]markOut, len(s.Marks)), MoreMarks: s.MoreMarks, Mirror: mirrorOut{Entries: st.Entries, Last: st.Last}}
	for i, b := range s.Buckets {
		o.Buckets[i] = bucketOut{b.Start, b.End, b.Count}
	}
	for i, m := range s.Marks {
		o.Marks[i] = markOut{string(m.Kind), m.Start, m.End, m.Type, m.User, m.IP, m.Count, m.Why}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(o)
}

// statsBarWidth is the widest histogram bar of the table.
const statsBarWidth = 40

// writeStatsTable prints the stats as sections of aligned columns: the
// histogram (a bar of # scaled to the busiest bucket), the top lists side
// by side, and the marks.
func writeStatsTable(w io.Writer, s audit.Stats, st store.AuditMirrorState) error {
	bw := bufio.NewWriter(w)
	what := "entry"
	if s.Type != "" {
		what = sanitize.Line(s.Type) + " entry"
	}
	fmt.Fprintf(bw, "Audit activity %s: %s, %s counted (local mirror up to %s UTC; no request was made)\n\n",
		s.Describe(), plural.Count(s.Total, "entry"), plural.Count(s.Counted, what), fmtUTC(st.Last))
	peak := 0
	for _, b := range s.Buckets {
		peak = max(peak, b.Count)
	}
	rows := [][]string{{"TIME (UTC)", "COUNT", " "}}
	layout := "2006-01-02 15:04"
	if s.By >= 24*time.Hour {
		layout = "2006-01-02"
	}
	for _, b := range s.Buckets {
		bar := ""
		if peak > 0 && b.Count > 0 {
			bar = strings.Repeat("#", max(1, b.Count*statsBarWidth/peak))
		}
		rows = append(rows, []string{b.Start.Format(layout), strconv.Itoa(b.Count), bar})
	}
	if err := writeAligned(bw, len(rows), func(i int) []string { return rows[i] }); err != nil {
		return err
	}
	fmt.Fprintln(bw)
	tops := [][]string{{"TOP USERS", "N", "TOP ADDRESSES", "N", "TOP TYPES", "N"}}
	for i := range max(len(s.Users), len(s.IPs), len(s.Types)) {
		row := make([]string, 0, 6)
		for _, l := range [][]audit.Tally{s.Users, s.IPs, s.Types} {
			if i < len(l) {
				row = append(row, l[i].Name, strconv.Itoa(l[i].Count))
			} else {
				row = append(row, " ", " ")
			}
		}
		tops = append(tops, row)
	}
	if err := writeAligned(bw, len(tops), func(i int) []string { return tops[i] }); err != nil {
		return err
	}
	fmt.Fprintln(bw)
	if len(s.Marks) == 0 {
		fmt.Fprintln(bw, "Nothing stands out.")
		return bw.Flush()
	}
	marks := [][]string{{"MARK", "FROM (UTC)", "TO (UTC)", "COUNT", "WHAT"}}
	for _, m := range s.Marks {
		marks = append(marks, []string{string(m.Kind), m.Start.Format("2006-01-02 15:04:05"), m.End.Format("2006-01-02 15:04:05"), strconv.Itoa(m.Count), m.Why})
	}
	if err := writeAligned(bw, len(marks), func(i int) []string { return marks[i] }); err != nil {
		return err
	}
	if s.MoreMarks > 0 {
		fmt.Fprintf(bw, "… and %d more marks (narrow the range)\n", s.MoreMarks)
	}
	return bw.Flush()
}
