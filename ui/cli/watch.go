package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Watch intervals: the first poll at once, then every watchBase while
// something changes, doubling up to watchMax while nothing does. Each poll
// is one get_files call per 1000 IDs, from the same budget as everything
// else in the process.
const (
	watchBase = 10 * time.Second
	watchMax  = 2 * time.Minute
)

// nextWatch is the pause before the next poll.
func nextWatch(prev time.Duration, changed bool) time.Duration {
	if changed || prev <= 0 {
		return watchBase
	}
	return min(2*prev, watchMax)
}

// watched is what the watch knows of one file.
type watched struct {
	id, name string
	status   api.Status
	notFound bool
	replaced bool      // deleted_at: a later upload of its name superseded it
	since    time.Time // upload time when known, else first seen
	seenOnly bool      // since is only "first seen"
	group    filestatus.Group
	shown    bool
}

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
}

// watch polls ids until every file is ready, failed or missing, printing
// each file when its group changes and a summary after each poll (NDJSON
// under --json). Age counts from the upload time the journal knows, else
// from first seen. Exit 3 when some file failed or is missing.
func (r *runner) watch(ctx context.Context, c *api.Client, ids []string, stuckAfter time.Duration) int {
	clock := r.env.Clock
	if clock == nil {
		clock = api.SystemClock{}
	}
	uploaded := r.journalUploadTimes(ids)
	files := make([]*watched, 0, len(ids))
	byID := map[string]*watched{}
	for _, id := range ids {
		if _, dup := byID[strings.ToLower(id)]; dup {
			continue
		}
		w := &watched{id: id}
		files = append(files, w)
		byID[strings.ToLower(id)] = w
	}
	var wait time.Duration
	for {
		now := clock.Now()
		var ask []string
		for _, w := range files {
			if !w.final() {
				ask = append(ask, w.id)
			}
		}
		recs, err := c.GetFiles(ctx, ask)
		if err != nil {
			return r.fail(err)
		}
		changed := false
		for _, d := range recs {
			w := byID[strings.ToLower(d.FileID)]
			if w == nil {
				continue
			}
			first := !w.shown
			prev := w.status
			w.name, w.status, w.notFound = d.FileName, d.ProcessingStatus, d.Error == "not_found"
			w.replaced = !d.Failed() && d.DeletedAt != nil
			if d.Failed() && !w.notFound {
				w.notFound = true // any per-ID error: not accessible
			}
			if first {
				w.since, w.seenOnly = now, true
				if at, ok := uploaded[strings.ToLower(w.id)]; ok && !at.IsZero() {
					w.since, w.seenOnly = at, false
				}
			} else if !prev.Is(w.status) {
				w.since, w.seenOnly = now, false
			}
			g := w.classify(now, stuckAfter)
			if first || g != w.group || !prev.Is(w.status) {
				w.group, w.shown, changed = g, true, true
				r.emitWatch(w, now)
			}
		}
		// A file turns stuck with the clock alone: report it too.
		var n filestatus.Counts
		for _, w := range files {
			if g := w.classify(now, stuckAfter); w.shown && g != w.group {
				w.group, changed = g, true
				r.emitWatch(w, now)
			}
			n[w.group]++
		}
		r.emitSummary(n, now)
		done := true
		for _, w := range files {
			done = done && w.final()
		}
		if done {
			if n[filestatus.FailedRecoverable]+n[filestatus.FailedUnrecoverable]+n[filestatus.Missing] > 0 {
				return ExitPartial
			}
			return ExitOK
		}
		wait = nextWatch(wait, changed)
		if err := clock.Sleep(ctx, wait); err != nil {
			return ExitError
		}
	}
}

// classify is the file's group: a superseded file is replaced, whatever
// processing status its old record still carries.
func (w *watched) classify(now time.Time, stuckAfter time.Duration) filestatus.Group {
	return filestatus.Classify(filestatus.Facts{Status: w.status, NotFound: w.notFound, Replaced: w.replaced, Since: w.since}, now, stuckAfter)
}

func (w *watched) final() bool {
	return w.shown && (w.group == filestatus.Ready || w.group == filestatus.Missing || w.group == filestatus.Replaced ||
		w.group == filestatus.FailedRecoverable || w.group == filestatus.FailedUnrecoverable)
}

func (r *runner) emitWatch(w *watched, now time.Time) {
	from := "uploaded"
	if w.seenOnly {
		from = "first_seen"
	}
	age := now.Sub(w.since)
	if r.g.JSON {
		_ = writeJSONLine(r.env.Stdout, watchEvent{Type: "file", Time: now.UTC().Format(time.RFC3339), FileID: w.id,
			FileName: w.name, Status: filestatus.Word(w.status), Group: w.group.String(), AgeSeconds: age.Seconds(), AgeFrom: from})
		return
	}
	ageText := age.Truncate(time.Second).String()
	if w.seenOnly {
		ageText = "≥" + ageText + " (since first seen)"
	}
	status := filestatus.Word(w.status)
	switch {
	case w.notFound:
		status = "not found"
	case w.replaced:
		status = "replaced"
	}
	fmt.Fprintf(r.env.Stdout, "%s  %s  %s  %s  %s  %s\n", now.Local().Format("15:04:05"), w.id, sanitize.Line(w.name), status, w.group, ageText)
}

func (r *runner) emitSummary(n filestatus.Counts, now time.Time) {
	if r.g.JSON {
		failRec, failUnrec := n[filestatus.FailedRecoverable], n[filestatus.FailedUnrecoverable]
		ready, proc, stuck, missing := n[filestatus.Ready], n[filestatus.Processing], n[filestatus.Stuck], n[filestatus.Missing]
		_ = writeJSONLine(r.env.Stdout, watchEvent{Type: "summary", Time: now.UTC().Format(time.RFC3339), Ready: &ready,
			Processing: &proc, Stuck: &stuck, FailedRecoverable: &failRec, FailedUnrecoverable: &failUnrec, Missing: &missing})
		return
	}
	fmt.Fprintf(r.env.Stdout, "%s  %s\n", now.Local().Format("15:04:05"), n.Line())
}

// journalUploadTimes reads upload times of ids from the journal, if there
// is one; without it ages count from first seen.
func (r *runner) journalUploadTimes(ids []string) map[string]time.Time {
	out := map[string]time.Time{}
	if r.env.Journal == nil {
		return out
	}
	st, profile, err := r.env.Journal(r.g.Profile)
	if err != nil {
		return out
	}
	defer st.Close()
	rows, err := st.FilesByID(profile, ids)
	if err != nil {
		return out
	}
	for _, f := range rows {
		out[strings.ToLower(f.FileID)] = f.UploadedAt
	}
	return out
}

// writeJSONLine prints v as one line of JSON (NDJSON), escaped like
// writeJSON (C1 controls, and invalid UTF-8 inside raw server bytes).
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(jsonSafe(nil, b, true), '\n'))
	return err
}
