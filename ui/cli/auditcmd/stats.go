package auditcmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// StatsOptions are what `audit stats` was asked and what it works with.
type StatsOptions struct {
	IO     *printer.Printer
	Client func() (*api.Client, error)
	Store  func() (*store.Store, error)
	Clock  api.Clock

	Since, Until string // as `audit`'s
	By           string // "hour", "day" or "" (by the range's length)
	Type         string
}

// statsByDayAfter: ranges longer than this are counted by day unless --by
// says otherwise (72 hourly bars is as many as a terminal shows).
const statsByDayAfter = 72 * time.Hour

// NewCmdStats is `audit stats`: activity at a glance, from the local
// mirror; runF, when set, runs instead of RunStats.
func NewCmdStats(f *factory.Factory, runF func(context.Context, *StatsOptions) int) *cobra.Command {
	o := &StatsOptions{IO: f.IO, Client: f.Client, Store: f.Store, Clock: f.Clock}
	c := &cobra.Command{Use: "stats", Short: "activity at a glance from the local mirror: entries per hour or day, top users, addresses and types, what stands out",
		Long: `Counts the mirror's entries over a range (no request is made): a histogram by
hour or day, the top users, addresses and types, and marks on what stands out:
a burst of deletions or exports (one such type reaching 10 in a bucket and more
than 4 times its median per bucket over the range), a login from an address
the user never used before (for a user whose addresses repeat), and activity
at an hour of the day the user is never active at (for a user whose 50 or more
entries of the 28 days before the range keep to at most 16 hours of the day). Run ` + "`vaultdeck audit sync`" + ` first to make or bring up the mirror.
--json prints one object (since, until, by, type, total, counted, buckets,
top_users, top_ips, top_types, marks, more_marks, mirror).`,
		Args: cmdutil.NoArgs}
	fs := c.Flags()
	fs.StringVar(&o.Since, "since", "7d", "from `T`: 2026-11-01, 2026-11-01T09:30:00Z, or an age such as 36h or 7d")
	fs.StringVar(&o.Until, "until", "", "before `T` (same forms as --since; default now)")
	fs.StringVar(&o.By, "by", "", "histogram buckets of an `hour|day` (default: hour for ranges up to 3 days, else day)")
	fs.StringVar(&o.Type, "type", "", "count only entries of log type `T` in the histogram and the top users and addresses")
	_ = c.RegisterFlagCompletionFunc("by", cmdutil.Fixed([]string{"hour", "day"}))
	if runF == nil {
		runF = RunStats
	}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, _ []string) int { return runF(ctx, o) })
	return c
}

// RunStats prints activity at a glance from the mirror alone.
func RunStats(ctx context.Context, o *StatsOptions) int {
	p := o.IO
	if code, ok := p.Accept("audit stats prints a table, one JSON object with --json (on one line with --jsonl), or its buckets with --csv", printer.Table, printer.JSON, printer.JSONL, printer.CSV); !ok {
		return code
	}
	at := now(o.Clock)
	q := audit.StatsRange{Type: strings.TrimSpace(o.Type), Until: at.UTC()}
	var err error
	if q.Since, err = audit.ParseWhen(o.Since, at); err != nil || q.Since.IsZero() {
		return p.Usage("--since: %v", cmpErr(err, "a start is needed (e.g. 7d)"))
	}
	if o.Until != "" {
		if q.Until, err = audit.ParseWhen(o.Until, at); err != nil {
			return p.Usage("--until: %v", err)
		}
	}
	if !q.Since.Before(q.Until) {
		return p.Usage("--since (%s) must be before --until (%s)", printer.UTCSeconds(q.Since), printer.UTCSeconds(q.Until))
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
		return p.Usage("--by must be hour or day, not %q", sanitize.Line(o.By))
	}
	c, err := o.Client()
	if err != nil {
		return p.Fail(err)
	}
	st, err := o.Store()
	if err != nil {
		return p.Fail(fmt.Errorf("the audit mirror lives in the local database, which could not be opened: %w", err))
	}
	defer st.Close()
	log, err := audit.MirrorLog(ctx, st, c)
	if err != nil {
		return p.Fail(err)
	}
	state, err := st.AuditState(ctx, log)
	if err != nil {
		return p.Fail(err)
	}
	if !state.Started() {
		return p.Fail(audit.ErrNoMirror)
	}
	s, err := audit.ReadStats(ctx, st, log, q)
	if errors.Is(err, audit.ErrStatsRange) {
		return p.Usage("%v", err)
	}
	if err != nil {
		return p.Fail(err)
	}
	if p.Is(printer.CSV) { // the histogram's buckets: the console's e on :activity
		rows := make([][]string, len(s.Buckets))
		for i, b := range s.Buckets {
			rows[i] = records.Bucket(b)
		}
		return p.Done(p.Show(printer.Value{Headers: records.BucketHeader(), Rows: rows})) // a Value: --filter and --sort apply
	}
	err = p.Show(printer.Value{JSON: statsValue(s, state), Text: func(w io.Writer) error { return writeStatsTable(w, s, state) }})
	return p.Done(err)
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

// statsValue is --json's object of s.
func statsValue(s audit.Stats, st store.AuditMirrorState) statsJSON {
	o := statsJSON{Since: s.Since, Until: s.Until, By: byName(s.By), Type: s.Type, Total: s.Total, Counted: s.Counted,
		Buckets: make([]bucketOut, len(s.Buckets)), TopUsers: tallies(s.Users), TopIPs: tallies(s.IPs), TopTypes: tallies(s.Types),
		Marks: make([]markOut, len(s.Marks)), MoreMarks: s.MoreMarks, Mirror: mirrorOut{Entries: st.Entries, Last: st.Last}}
	for i, b := range s.Buckets {
		o.Buckets[i] = bucketOut{b.Start, b.End, b.Count}
	}
	for i, m := range s.Marks {
		o.Marks[i] = markOut{string(m.Kind), m.Start, m.End, m.Type, m.User, m.IP, m.Count, m.Why}
	}
	return o
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
		s.Describe(), plural.Count(s.Total, "entry"), plural.Count(s.Counted, what), printer.UTCSeconds(st.Last))
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
	if err := printer.Aligned(bw, held(rows)); err != nil {
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
	if err := printer.Aligned(bw, held(tops)); err != nil {
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
	if err := printer.Aligned(bw, held(marks)); err != nil {
		return err
	}
	if s.MoreMarks > 0 {
		fmt.Fprintf(bw, "… and %d more marks (narrow the range)\n", s.MoreMarks)
	}
	return bw.Flush()
}

// held walks rows held in memory for printer.Aligned.
func held(rows [][]string) func(func([]string)) error {
	return func(row func([]string)) error {
		for _, r := range rows {
			row(r)
		}
		return nil
	}
}
