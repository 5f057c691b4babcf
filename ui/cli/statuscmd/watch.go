package statuscmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// watchEvent is one NDJSON line of `status --watch --json`.
type watchEvent struct {
	Type       string  `json:"type"` // "file" or "summary"
	Time       string  `json:"time"`
	FileID     string  `json:"file_id,omitempty"`
	FileName   string  `json:"file_name,omitempty"`
	Status     string  `json:"status,omitempty"`
	Group      string  `json:"group,omitempty"`
	AgeSeconds float64 `json:"age_seconds,omitempty"`
	AgeFrom    string  `json:"age_from,omitempty"` // "uploaded" or "first_seen"

	Ready               *int `json:"ready,omitempty"`
	Processing          *int `json:"processing,omitempty"`
	Stuck               *int `json:"stuck,omitempty"`
	FailedRecoverable   *int `json:"failed_recoverable,omitempty"`
	FailedUnrecoverable *int `json:"failed_unrecoverable,omitempty"`
	Missing             *int `json:"missing,omitempty"`
	// Unknown: files in a status the interface never named (only when
	// there are some).
	Unknown *int `json:"unknown,omitempty"`
	// StuckAfter is the threshold the stuck count was taken against
	// (summary only): the flag's, the profile's setting or the default.
	StuckAfter string `json:"stuck_after,omitempty"`
}

// watch polls ids until every file is ready, failed or missing, printing
// each file when its group or status changes and a summary after each poll
// (NDJSON under --json). It prints the one file-status home: its tracker
// (age from the upload time the journal knows, else from first seen), its
// classification and its cadence (Alone: the watch is all this process
// spends the budget on). Exit 3 when some file failed or is missing.
func (o *Options) watch(ctx context.Context, c *api.Client, ids []string, stuckAfter time.Duration) int {
	clock := o.Clock
	if clock == nil {
		clock = api.SystemClock{}
	}
	// The server's strings as they are: --json keeps them (escaped as
	// JSON), the text lines clean them (emitWatch).
	tr := filestatus.NewTracker(ids, nil)
	tr.SetUploaded(o.journalUploadTimes(ids))
	cadence := filestatus.Cadence{Alone: true}
	printed := make([]bool, len(tr.Files))
	last := make([]filestatus.Group, len(tr.Files)) // the group each file was last printed in
	quiet := 0
	plan := cadence.Next(tr.Pending(), filestatus.Budget{}, 0, 0, quiet)
	for {
		now := clock.Now()
		ask := tr.Batch(plan.Calls*api.MaxFileIDs, false)
		recs, err := c.GetFiles(ctx, ask)
		if err != nil {
			return o.IO.Fail(err)
		}
		tr.Apply(ask, api.Values(recs), now)
		// A file turns stuck with the clock alone: that is printed too.
		changed := false
		var n filestatus.Counts
		for i := range tr.Files {
			f := &tr.Files[i]
			g := f.Group(now, stuckAfter)
			if f.Seen && (!printed[i] || g != last[i] || tr.Changed(f)) {
				printed[i], last[i], changed = true, g, true
				o.emitWatch(f, g, now)
			}
			n[g]++
		}
		o.emitSummary(n, now, stuckAfter)
		if tr.Pending() == 0 {
			if n[filestatus.Unknown] > 0 {
				o.IO.Note("%s in a status this client does not know (%s): shown as received; check them in the project", plural.Count(n[filestatus.Unknown], "file"), unknownStatuses(tr, now, stuckAfter))
			}
			if n[filestatus.FailedRecoverable]+n[filestatus.FailedUnrecoverable]+n[filestatus.Missing]+n[filestatus.Unknown] > 0 {
				return printer.ExitPartial
			}
			return printer.ExitOK
		}
		if changed {
			quiet = 0
		} else {
			quiet++
		}
		plan = cadence.Next(tr.Pending(), filestatus.Budget{}, 0, 0, quiet)
		if err := clock.Sleep(ctx, plan.Wait); err != nil {
			return printer.ExitError
		}
	}
}

// emitWatch prints one file in its group g: a JSON line, or a text line
// (the server's strings cleaned).
func (o *Options) emitWatch(f *filestatus.File, g filestatus.Group, now time.Time) {
	from := "uploaded"
	if f.SinceSeen {
		from = "first_seen"
	}
	age := now.Sub(f.Since)
	ageText := age.Truncate(time.Second).String()
	if f.SinceSeen {
		ageText = "≥" + ageText + " (since first seen)"
	}
	_ = o.IO.Event(watchEvent{Type: "file", Time: now.UTC().Format(time.RFC3339), FileID: f.ID,
		FileName: f.Name, Status: filestatus.Word(f.Status), Group: g.String(), AgeSeconds: age.Seconds(), AgeFrom: from},
		fmt.Sprintf("%s  %s  %s  %s  %s  %s", now.UTC().Format("15:04:05Z"), sanitize.Line(f.ID), sanitize.Line(f.Name),
			sanitize.Line(f.Facts().Word()), g, ageText))
}

func (o *Options) emitSummary(n filestatus.Counts, now time.Time, stuckAfter time.Duration) {
	failRec, failUnrec := n[filestatus.FailedRecoverable], n[filestatus.FailedUnrecoverable]
	ready, proc, stuck, missing := n[filestatus.Ready], n[filestatus.Processing], n[filestatus.Stuck], n[filestatus.Missing]
	var unknown *int
	if u := n[filestatus.Unknown]; u > 0 {
		unknown = &u
	}
	_ = o.IO.Event(watchEvent{Type: "summary", Time: now.UTC().Format(time.RFC3339), Ready: &ready,
		Processing: &proc, Stuck: &stuck, FailedRecoverable: &failRec, FailedUnrecoverable: &failUnrec, Missing: &missing, Unknown: unknown, StuckAfter: cmdutil.ShortDuration(stuckAfter)},
		fmt.Sprintf("%s  %s %s", now.UTC().Format("15:04:05Z"), n.Line(), stuckRule(stuckAfter)))
}

// unknownStatuses are the distinct statuses of the files in the unknown
// group, as received (cleaned), for the watch's last line.
func unknownStatuses(tr *filestatus.Tracker, now time.Time, stuckAfter time.Duration) string {
	var out []string
	seen := map[string]bool{}
	for i := range tr.Files {
		f := &tr.Files[i]
		if w := sanitize.Line(f.Facts().Word()); f.Group(now, stuckAfter) == filestatus.Unknown && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return strings.Join(out, ", ")
}

// journalUploadTimes reads upload times of ids from the journal, if there
// is one; without it ages count from first seen.
func (o *Options) journalUploadTimes(ids []string) map[string]time.Time {
	st, profile, err := o.Journal()
	if err != nil {
		return nil
	}
	defer st.Close()
	rows, err := st.FilesByID(profile, ids)
	if err != nil {
		return nil
	}
	_, times := filestatus.Confirmed(rows)
	return times
}
