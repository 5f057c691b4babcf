package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
)

// journal opens the store that holds the upload journal, with the name of
// the active profile (the journal is per profile).
func (r *runner) journal() (*store.Store, string, error) { return r.f.OpenJournal() }

// uploadReport is the --json form of an upload's outcome.
type uploadReport struct {
	Runs       []int64      `json:"runs"`
	Uploaded   []fileReport `json:"uploaded"`
	Skipped    []fileReport `json:"skipped"`
	Refused    []fileReport `json:"refused"`
	Failed     []fileReport `json:"failed"`
	Unproven   []fileReport `json:"unproven"`
	Replaced   []fileReport `json:"replaced"`
	Renamed    []fileReport `json:"renamed"`
	Unfinished int          `json:"unfinished_batches"`
	Errors     []string     `json:"errors"`
	Notes      []string     `json:"notes"`
}

type fileReport struct {
	Local  string `json:"local_path"`
	Path   string `json:"file_path,omitempty"`
	FileID string `json:"file_id,omitempty"`
	Name   string `json:"service_name,omitempty"` // renamed by the service (keep)
	Size   int64  `json:"size"`
	Reason string `json:"reason,omitempty"`
}

func reports(files []store.JournalFile) []fileReport {
	out := make([]fileReport, 0, len(files))
	for _, f := range files {
		out = append(out, fileReport{Local: f.Local, Path: f.Path, FileID: f.FileID, Name: f.ServiceName, Size: f.Size, Reason: f.Reason})
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
			Refused: reports(o.Refused), Failed: reports(o.Failed), Unproven: reports(o.Unproven), Replaced: reports(o.Replaced), Renamed: reports(o.Renamed),
			Unfinished: o.Unfinished, Errors: errs, Notes: notes}); code != ExitOK {
			return code
		}
		return status
	}
	t := r.table("FILE", "RESULT", "FILE ID / REASON")
	renamed := map[int64]string{}
	for _, f := range o.Renamed {
		renamed[f.ID] = f.ServiceName
	}
	for _, set := range []struct {
		files []store.JournalFile
		label string
	}{{o.Uploaded, "uploaded"}, {o.Replaced, "replaced"}, {o.Skipped, "skipped"}, {o.Refused, "refused"}, {o.Failed, "failed"}, {o.Unproven, "unproven"}} {
		for _, f := range set.files {
			detail, label := f.FileID, set.label
			switch {
			case renamed[f.ID] != "":
				label, detail = "renamed", f.FileID+" as "+renamed[f.ID]
			case set.label == "replaced":
				detail = f.FileID + ": " + f.Reason
			case detail == "":
				detail = f.Reason
			}
			t.row(f.Local, label, detail)
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
	if len(o.Replaced) > 0 {
		fmt.Fprintf(sum, ", %d replaced by a file of the same name in this upload", len(o.Replaced))
	}
	if len(o.Renamed) > 0 {
		fmt.Fprintf(sum, " (%d of the uploaded renamed by the service)", len(o.Renamed))
	}
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
	r.refusedHint(o.Refused)
	for _, e := range o.Errors {
		fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %s\n", oneLine(e))
	}
	if o.Unfinished > 0 {
		fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %s unfinished; run `vaultdeck upload --resume` to finish %s\n", plural.Count(o.Unfinished, "batch"), plural.Noun(o.Unfinished, "it", "them"))
	}
	return status
}

// uploads lists the journal's runs.

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
		msg := "vaultdeck upload: " + x.String()
		if x.Reason == api.WaitBudget || x.Status == 429 {
			// Nothing of the request is out (a 429 accepted nothing), so
			// the first Ctrl-C drops it (api.WithStopBeforeSending).
			msg += " (Ctrl-C stops here; nothing of this request was sent yet)"
		}
		if line != nil {
			line.note(msg)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintln(w, msg)
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

// refusedHint says, per project, what to run for the files refused while
// their batch was prepared (changed, replaced, a link, unreadable): nothing
// of them was sent, and an upload of them as they are now is a new run,
// once the user has looked at them. A long list is not repeated: the table
// above names every file.
func (r *runner) refusedHint(refused []store.JournalFile) {
	byProject := map[string][]store.JournalFile{}
	var order []string
	for _, f := range refused {
		if f.ProjectID == "" {
			continue // refused while planning: never journaled for a project
		}
		if byProject[f.ProjectID] == nil {
			order = append(order, f.ProjectID)
		}
		byProject[f.ProjectID] = append(byProject[f.ProjectID], f)
	}
	for _, p := range order {
		files := byProject[p]
		cmd := upload.AgainCommand(p, files)
		if len(files) > 20 {
			cmd = upload.AgainCommand(p, nil) + " PATH... (the refused paths are listed above)"
		}
		fmt.Fprintf(r.env.Stderr, "vaultdeck upload: %s refused, nothing of %s sent; check %s, then upload %s as %s now: %s\n",
			plural.Count(len(files), "file"), plural.Verb(len(files), "it", "them"), plural.Verb(len(files), "it", "them"), plural.Verb(len(files), "it", "them"), plural.Verb(len(files), "it is", "they are"), oneLine(cmd))
	}
}

// saySameNames names, before anything is sent, the files of one name from
// different folders and what each duplicate mode does with them (the
// project keeps one file per name). Without --same-names the upload is
// refused with this list (exit 2): which file survives is the user's call.
func (r *runner) saySameNames(same []upload.SameName, mode api.DuplicateMode, accepted bool) {
	w := r.env.Stderr
	files := 0
	for _, g := range same {
		files += len(g.Files)
	}
	fmt.Fprintf(w, "vaultdeck upload: %s %s %s across folders; a project holds one file per name, so:\n", plural.Count(files, "file"), plural.Verb(files, "shares", "share"), plural.Count(len(same), "name"))
	for _, g := range same {
		fmt.Fprintf(w, "  %s: %s\n", oneLine(g.Name), oneLine(g.Paths()))
		for _, m := range []api.DuplicateMode{api.DuplicateReplace, api.DuplicateSkip, api.DuplicateKeep} {
			chosen := ""
			if m == mode {
				chosen = " (chosen)"
			}
			fmt.Fprintf(w, "    --mode %s%s: %s\n", m, chosen, oneLine(g.Effect(m)))
		}
	}
	if accepted {
		fmt.Fprintf(w, "vaultdeck upload: sending them with --mode %s, as --same-names asks\n", mode)
		return
	}
	fmt.Fprintf(w, "vaultdeck upload: nothing was sent. Rename one of each, upload the folders separately, or add --same-names to send them with the --mode chosen\n")
}
