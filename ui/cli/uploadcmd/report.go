// Package uploadcmd is `vaultdeck upload` (journaled, resumable uploads
// of files and folders: api/upload) and `vaultdeck uploads`, the journal's
// runs and each file's outcome.
package uploadcmd

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Report is the --json form of an upload's outcome. Its field names are a
// promise to scripts: add, never rename.
type Report struct {
	Runs       []int64      `json:"runs"`
	Uploaded   []FileReport `json:"uploaded"`
	Skipped    []FileReport `json:"skipped"`
	Refused    []FileReport `json:"refused"`
	Failed     []FileReport `json:"failed"`
	Unproven   []FileReport `json:"unproven"`
	Replaced   []FileReport `json:"replaced"`
	Renamed    []FileReport `json:"renamed"`
	Unfinished int          `json:"unfinished_batches"`
	Errors     []string     `json:"errors"`
	Notes      []string     `json:"notes"`
}

// FileReport is one file of a Report.
type FileReport struct {
	Local  string `json:"local_path"`
	Path   string `json:"file_path,omitempty"`
	FileID string `json:"file_id,omitempty"`
	Name   string `json:"service_name,omitempty"` // renamed by the service (keep)
	Size   int64  `json:"size"`
	Reason string `json:"reason,omitempty"`
}

func reports(files []store.JournalFile) []FileReport {
	out := make([]FileReport, 0, len(files))
	for _, f := range files {
		out = append(out, FileReport{Local: f.Local, Path: f.Path, FileID: f.FileID, Name: f.ServiceName, Size: f.Size, Reason: f.Reason})
	}
	return out
}

// report prints an upload's outcome: every file with its result, the
// counts, and what to do about what is not done; exit 3 while anything is
// not known to be done.
func (o *Options) report(out upload.Outcome, notes []string) int {
	p := o.IO
	status := printer.ExitOK
	// An error of the journal (StartBatch or CompleteBatch failing: a lost
	// lease, a full disk) leaves no file counted as refused or failed, yet
	// the run is not known to be done: a script must not read it as success.
	if out.Partial() || len(out.Errors) > 0 {
		status = printer.ExitPartial
	}
	if notes == nil {
		notes = []string{}
	}
	errs := out.Errors
	if errs == nil {
		errs = []string{}
	}
	// What the JSON's fields say, people read on stderr under the table.
	said := append([]string{}, notes...)
	for _, f := range out.Unproven {
		said = append(said, fmt.Sprintf("%s: not known to have arrived; %s", f.Local, f.Reason))
	}
	said = append(said, refusedHints(out.Refused)...)
	said = append(said, out.Errors...)
	if out.Unfinished > 0 {
		said = append(said, fmt.Sprintf("%s unfinished; run `vaultdeck upload --resume` to finish %s", plural.Count(out.Unfinished, "batch"), plural.Noun(out.Unfinished, "it", "them")))
	}
	rows := reportRows(out)
	err := p.Show(printer.Result{
		JSON: func() (any, error) {
			return Report{Runs: append([]int64{}, out.RunIDs...), Uploaded: reports(out.Uploaded), Skipped: reports(out.Skipped),
				Refused: reports(out.Refused), Failed: reports(out.Failed), Unproven: reports(out.Unproven), Replaced: reports(out.Replaced), Renamed: reports(out.Renamed),
				Unfinished: out.Unfinished, Errors: errs, Notes: notes}, nil
		},
		Table: func(row func([]string) error) error {
			if err := row([]string{"FILE", "RESULT", "FILE ID / REASON"}); err != nil {
				return err
			}
			for _, r := range rows {
				if err := row(r); err != nil {
					return err
				}
			}
			return nil
		},
		Summary: reportSummary(out),
		Notes:   said,
	})
	if err == nil {
		err = p.Flush() // whether the report reached stdout is known now, while its runs can be named
	}
	var lost *printer.StreamError
	if errors.As(err, &lost) && lost.Stream == "stdout" && len(out.RunIDs) > 0 {
		code := p.Fail(err) // the stdout line first
		runs := make([]string, len(out.RunIDs))
		for i, id := range out.RunIDs {
			runs[i] = fmt.Sprintf("`vaultdeck uploads %d`", id)
		}
		p.Note("what became of each file is in the journal: %s shows it", strings.Join(runs, ", "))
		return max(code, status)
	}
	if err != nil {
		return p.Fail(err)
	}
	return status
}

// reportRows are the report's table: each file, its result, its file ID
// or the reason.
func reportRows(out upload.Outcome) [][]string {
	var rows [][]string
	renamed := map[int64]string{}
	for _, f := range out.Renamed {
		renamed[f.ID] = f.ServiceName
	}
	for _, set := range []struct {
		files []store.JournalFile
		label string
	}{{out.Uploaded, "uploaded"}, {out.Replaced, "replaced"}, {out.Skipped, "skipped"}, {out.Refused, "refused"}, {out.Failed, "failed"}, {out.Unproven, "unproven"}} {
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
			rows = append(rows, []string{f.Local, label, detail})
		}
	}
	return rows
}

// reportSummary is the report's count line.
func reportSummary(out upload.Outcome) string {
	sum := fmt.Sprintf("%d uploaded, %d skipped, %d refused, %d failed", len(out.Uploaded), len(out.Skipped), len(out.Refused), len(out.Failed))
	if len(out.Replaced) > 0 {
		sum += fmt.Sprintf(", %d replaced by a file of the same name in this upload", len(out.Replaced))
	}
	if len(out.Renamed) > 0 {
		sum += fmt.Sprintf(" (%d of the uploaded renamed by the service)", len(out.Renamed))
	}
	if len(out.Unproven) > 0 {
		sum += fmt.Sprintf(", %d unproven", len(out.Unproven))
	}
	return sum
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
func (o *Options) uploadWaits(line *progressLine) func(api.Wait) {
	var mu sync.Mutex
	w := o.IO.Err()
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

// refusedHints say, per project, what to run for the files refused while
// their batch was prepared (changed, replaced, a link, unreadable): nothing
// of them was sent, and an upload of them as they are now is a new run,
// once the user has looked at them. A long list is not repeated: the table
// above names every file.
func refusedHints(refused []store.JournalFile) []string {
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
	var hints []string
	for _, p := range order {
		files := byProject[p]
		cmd := upload.AgainCommand(p, files)
		if len(files) > 20 {
			cmd = upload.AgainCommand(p, nil) + " PATH... (the refused paths are listed above)"
		}
		hints = append(hints, fmt.Sprintf("%s refused, nothing of %s sent; check %s, then upload %s as %s now: %s",
			plural.Count(len(files), "file"), plural.Verb(len(files), "it", "them"), plural.Verb(len(files), "it", "them"), plural.Verb(len(files), "it", "them"), plural.Verb(len(files), "it is", "they are"), cmd))
	}
	return hints
}

// saySameNames names, before anything is sent, the files of one name from
// different folders and what each duplicate mode does with them (the
// project keeps one file per name). Without --same-names the upload is
// refused with this list (exit 2): which file survives is the user's call.
func (o *Options) saySameNames(same []upload.SameName, mode api.DuplicateMode, accepted bool) {
	w := o.IO.Err()
	files := 0
	for _, g := range same {
		files += len(g.Files)
	}
	fmt.Fprintf(w, "vaultdeck upload: %s %s %s across folders; a project holds one file per name, so:\n", plural.Count(files, "file"), plural.Verb(files, "shares", "share"), plural.Count(len(same), "name"))
	for _, g := range same {
		fmt.Fprintf(w, "  %s: %s\n", sanitize.Line(g.Name), sanitize.Line(g.Paths()))
		for _, m := range []api.DuplicateMode{api.DuplicateReplace, api.DuplicateSkip, api.DuplicateKeep} {
			chosen := ""
			if m == mode {
				chosen = " (chosen)"
			}
			fmt.Fprintf(w, "    --mode %s%s: %s\n", m, chosen, sanitize.Line(g.Effect(m)))
		}
	}
	if accepted {
		fmt.Fprintf(w, "vaultdeck upload: sending them with --mode %s, as --same-names asks\n", mode)
		return
	}
	fmt.Fprintf(w, "vaultdeck upload: nothing was sent. Rename one of each, upload the folders separately, or add --same-names to send them with the --mode chosen\n")
}
