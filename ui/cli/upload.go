package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
)

// journal opens the store that holds the upload journal, with the name of
// the active profile (the journal is per profile).
func (r *runner) journal() (*store.Store, string, error) {
	if r.env.Journal == nil {
		return nil, "", errors.New("uploads need the local database for their journal, which this build does not provide")
	}
	return r.env.Journal(r.g.Profile)
}

func (r *runner) upload(ctx context.Context, args []string) int {
	fs := r.newFlagSet("upload", "PROJECT_ID PATH... [--mode skip|replace|keep] | --resume")
	mode := fs.String("mode", "skip", "when a file of the same name exists: skip, replace (a new version) or keep (both, the new one renamed)")
	resume := fs.Bool("resume", false, "finish every interrupted upload of the profile, sending only what did not arrive")
	pos, code, ok := r.parseFlags(fs, args)
	if !ok {
		return code
	}
	switch api.DuplicateMode(*mode) {
	case api.DuplicateSkip, api.DuplicateReplace, api.DuplicateKeep:
	default:
		return r.usage(fs, "--mode must be skip, replace or keep, not %q", *mode)
	}
	if *resume && len(pos) > 0 {
		return r.usage(fs, "--resume takes no arguments: it finishes every interrupted upload of the profile")
	}
	if !*resume && len(pos) < 2 {
		return r.usage(fs, "give a project ID and at least one file or folder")
	}
	if code, ok := r.refuseReadOnly(); !ok {
		return code
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	st, profile, err := r.journal()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	job := &upload.Runner{API: c, Store: st, Profile: profile}
	var line *progressLine
	if !r.g.JSON && r.stderrIsTerminal() {
		line = &progressLine{w: r.env.Stderr}
		job.Progress = line.update
	}
	// The first Ctrl-C (or SIGTERM) stops after the current request's
	// response; a second one stops now, leaving that request's outcome for
	// a resume to reconcile.
	abort, abortNow := context.WithCancel(context.Background())
	defer abortNow()
	job.Abort = abort
	job.Wait = r.uploadWaits(line)
	ctx = api.WithWaitObserver(ctx, job.Wait) // the resume's listings
	stopNote := context.AfterFunc(ctx, func() {
		again := make(chan os.Signal, 1)
		signal.Notify(again, os.Interrupt, syscall.SIGTERM)
		fmt.Fprintln(r.env.Stderr, "\nvaultdeck upload: stopping after the current request's response (it is needed to avoid duplicates); press Ctrl-C again to stop now")
		go func() {
			defer signal.Stop(again)
			select {
			case <-again:
				abortNow()
			case <-abort.Done():
			}
		}()
	})
	defer stopNote()

	var out upload.Outcome
	var planNotes []string
	if *resume {
		out, err = job.Resume(ctx)
	} else {
		plan := upload.Walk(pos[1:])
		planNotes = plan.Notes
		if !r.g.JSON {
			for _, n := range plan.Notes {
				fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %s\n", n)
			}
		}
		if len(plan.Files) == 0 && len(plan.Refused) == 0 {
			return r.fail(errors.New("nothing to upload: the paths hold no files"))
		}
		out, err = job.Upload(ctx, pos[0], plan, api.DuplicateMode(*mode))
	}
	line.finish()
	if err != nil {
		return r.fail(err)
	}
	return r.uploadReport(out, append(planNotes, out.Notes...))
}

// uploadReport is the --json form of an upload's outcome.
type uploadReport struct {
	Runs       []int64      `json:"runs"`
	Uploaded   []fileReport `json:"uploaded"`
	Skipped    []fileReport `json:"skipped"`
	Refused    []fileReport `json:"refused"`
	Failed     []fileReport `json:"failed"`
	Unproven   []fileReport `json:"unproven"`
	Unfinished int          `json:"unfinished_batches"`
	Errors     []string     `json:"errors"`
	Notes      []string     `json:"notes"`
}

type fileReport struct {
	Local  string `json:"local_path"`
	Path   string `json:"file_path,omitempty"`
	FileID string `json:"file_id,omitempty"`
	Size   int64  `json:"size"`
	Reason string `json:"reason,omitempty"`
}

func reports(files []store.JournalFile) []fileReport {
	out := make([]fileReport, 0, len(files))
	for _, f := range files {
		out = append(out, fileReport{Local: f.Local, Path: f.Path, FileID: f.FileID, Size: f.Size, Reason: f.Reason})
	}
	return out
}

func (r *runner) uploadReport(o upload.Outcome, notes []string) int {
	status := ExitOK
	// An error of the journal (StartBatch or CompleteBatch failing: a lost
	// lease, a full disk) leaves no file counted as refused or failed, yet
	// the run is not known to be done: a script must not read it as success.
	if o.Partial() || len(o.Errors) > 0 {
		status = ExitPartial
	}
	if r.g.JSON {
		if notes == nil {
			notes = []string{}
		}
		errs := o.Errors
		if errs == nil {
			errs = []string{}
		}
		if code := r.emitJSON(uploadReport{Runs: append([]int64{}, o.RunIDs...), Uploaded: reports(o.Uploaded), Skipped: reports(o.Skipped),
			Refused: reports(o.Refused), Failed: reports(o.Failed), Unproven: reports(o.Unproven), Unfinished: o.Unfinished, Errors: errs, Notes: notes}); code != ExitOK {
			return code
		}
		return status
	}
	t := r.table("FILE", "RESULT", "FILE ID / REASON")
	for _, set := range []struct {
		files []store.JournalFile
		label string
	}{{o.Uploaded, "uploaded"}, {o.Skipped, "skipped"}, {o.Refused, "refused"}, {o.Failed, "failed"}, {o.Unproven, "unproven"}} {
		for _, f := range set.files {
			detail := f.FileID
			if detail == "" {
				detail = f.Reason
			}
			t.row(f.Local, set.label, detail)
		}
	}
	if err := t.flush(); err != nil {
		return r.fail(err)
	}
	sum := r.env.Stdout
	if r.g.CSV {
		sum = r.env.Stderr // the CSV on stdout is the records alone
	}
	fmt.Fprintf(sum, "%d uploaded, %d skipped, %d refused, %d failed", len(o.Uploaded), len(o.Skipped), len(o.Refused), len(o.Failed))
	if len(o.Unproven) > 0 {
		fmt.Fprintf(sum, ", %d unproven", len(o.Unproven))
	}
	fmt.Fprintln(sum)
	for _, n := range notes {
		fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %s\n", oneLine(n))
	}
	for _, f := range o.Unproven {
		fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %s: not known to have arrived; %s\n", oneLine(f.Local), oneLine(f.Reason))
	}
	for _, e := range o.Errors {
		fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %s\n", oneLine(e))
	}
	if o.Unfinished > 0 {
		fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %d batch(es) unfinished; run `vaultdeck upload --resume` to finish them\n", o.Unfinished)
	}
	return status
}

// uploads lists the journal's runs.
func (r *runner) uploads(ctx context.Context, args []string) int {
	fs := r.newFlagSet("uploads", "")
	if code, ok := r.parseNoArgs(fs, args); !ok {
		return code
	}
	st, profile, err := r.journal()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	// A damaged file can list a run with the wrong counts, or none.
	if err := st.CheckJournal(); err != nil {
		return r.fail(err)
	}
	runs, err := st.UploadRuns(profile)
	if err != nil {
		return r.fail(err)
	}
	type runJSON struct {
		ID        int64     `json:"id"`
		ProjectID string    `json:"project_id"`
		Mode      string    `json:"mode"`
		CreatedAt time.Time `json:"created_at"`
		State     string    `json:"state"`
		Files     int64     `json:"files"`
		Bytes     int64     `json:"bytes"`
		Uploaded  int64     `json:"uploaded"`
		Skipped   int64     `json:"skipped"`
		Refused   int64     `json:"refused"`
		Failed    int64     `json:"failed"`
		Pending   int64     `json:"pending"`
		Unproven  int64     `json:"unproven"`
		OpenBatch int64     `json:"unfinished_batches"`
		// Audit is the service's own api:vault_upload_files entries of
		// the run, from the local mirror (no audit request).
		Audit map[string]any `json:"audit_evidence"`
	}
	list := make([]runJSON, 0, len(runs))
	for _, x := range runs {
		state := "finished"
		switch {
		case x.Pending > 0 || x.OpenBatches > 0:
			state = "unfinished"
		case !x.Finished():
			state = "unproven" // nothing left to send, but not all is known to have arrived
		}
		list = append(list, runJSON{x.ID, x.ProjectID, x.Mode, x.CreatedAt.UTC(), state, x.Files, x.Bytes,
			x.Uploaded, x.Skipped, x.Refused, x.Failed, x.Pending, x.Unproven, x.OpenBatches, nil})
	}
	audits := r.runEvidence(ctx, st, list2runs(runs))
	for i := range list {
		list[i].Audit = audits[i].json
	}
	if r.g.JSON {
		return r.emitJSON(list)
	}
	t := r.table("RUN", "STARTED", "PROJECT", "MODE", "STATE", "FILES", "SIZE", "UPLOADED", "SKIPPED", "REFUSED", "FAILED", "PENDING", "UNPROVEN", "AUDIT")
	for i, x := range list {
		t.row(fmt.Sprint(x.ID), x.CreatedAt.Local().Format("2006-01-02 15:04"), x.ProjectID, x.Mode, x.State, fmt.Sprint(x.Files),
			r.size(api.Int(x.Bytes)), fmt.Sprint(x.Uploaded), fmt.Sprint(x.Skipped), fmt.Sprint(x.Refused), fmt.Sprint(x.Failed), fmt.Sprint(x.Pending), fmt.Sprint(x.Unproven),
			audits[i].cell)
	}
	if note := auditFootnote(audits); note != "" {
		defer fmt.Fprintln(r.env.Stderr, note)
	}
	return r.done(t.flush())
}

// progressLine redraws one line on stderr, at most every 200 ms.
type progressLine struct {
	w    io.Writer
	mu   sync.Mutex
	last time.Time
	p    upload.Progress
	any  bool
}

func (l *progressLine) update(p upload.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.p = p
	if now := time.Now(); now.Sub(l.last) >= 200*time.Millisecond {
		l.last = now
		l.draw()
	}
}

// uploadWaits says every pause of an upload, on a terminal or not: an upload
// that waits a minute for the shared budget, or re-sends after a 429, must
// not look hung or lost to whoever reads its log. Pauses under a second are
// not worth a line, unless a 429 caused them.
func (r *runner) uploadWaits(line *progressLine) func(api.Wait) {
	var mu sync.Mutex
	w := r.env.Stderr
	return func(x api.Wait) {
		if x.For < time.Second && x.Status != 429 {
			return
		}
		if line != nil {
			line.note("vaultdeck upload: " + x.String())
			return
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "vaultdeck upload: %s\n", x)
	}
}

// note prints a line of its own above the progress line.
func (l *progressLine) note(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "\r\x1b[K%s\n", s)
	if l.any {
		l.draw()
	}
}

func (l *progressLine) draw() {
	p := l.p
	el := time.Since(p.Started).Seconds()
	rate, eta := 0.0, "?"
	if el > 0 {
		rate = float64(p.BytesDone) / el
	}
	if rate > 0 && p.Bytes >= p.BytesDone {
		eta = time.Duration(float64(p.Bytes-p.BytesDone) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(l.w, "\r\x1b[Kbatch %d/%d  files %d/%d  %s/%s  %s/s  ETA %s",
		p.Batch, p.Batches, p.FilesDone, p.Files, humanize.Bytes(uint64(p.BytesDone)), humanize.Bytes(uint64(p.Bytes)), humanize.Bytes(uint64(rate)), eta)
	l.any = true
}

func (l *progressLine) finish() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.any {
		l.draw()
		fmt.Fprintln(l.w)
	}
}
