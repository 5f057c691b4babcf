package uploadcmd

import (
	"fmt"
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// RunFiles lists every file of one run of the profile with its outcome:
// what was uploaded, replaced by a file of its name, renamed, skipped,
// refused, failed, not sent or unproven, and why; deleted (or found gone)
// by a later undo, which job and when, left alone by it and why, unknown
// while the undo's answer is not recorded. Exit 3 while anything of it is
// not known to be done.
func RunFiles(o *Options, arg string) int {
	p := o.IO
	runID, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || runID <= 0 {
		return p.Usage("RUN is a run number from `vaultdeck uploads`, not %q", arg)
	}
	st, profile, err := o.Journal()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	if err := st.CheckJournal(); err != nil {
		return p.Fail(err)
	}
	run, err := findRun(st, profile, runID)
	if err != nil {
		return p.Fail(err)
	}
	files, err := st.RunFiles(runID)
	if err != nil {
		return p.Fail(err)
	}
	undone, err := upload.ReadUndone(st, runID, files)
	if err != nil {
		return p.Fail(err)
	}
	type fileJSON struct {
		Path   string `json:"file_path"`
		Local  string `json:"local_path"`
		Result string `json:"result"`
		FileID string `json:"file_id,omitempty"`
		Detail string `json:"detail,omitempty"`
		Size   int64  `json:"size"`
		// the delete job (an undo) that deleted it, left it alone or has
		// it in flight, and when it settled (or was sent)
		UndoJob  int64      `json:"undo_job,omitempty"`
		UndoneAt *time.Time `json:"undone_at,omitempty"`
	}
	list := make([]fileJSON, 0, len(files))
	counts := map[string]int{}
	open := false
	for _, f := range files {
		word, detail, m := upload.RunResult(f, undone)
		x := fileJSON{Path: records.RunPath(&f), Local: f.Local, Result: word, FileID: f.FileID, Detail: detail, Size: f.Size}
		if m != nil {
			x.UndoJob = m.Job
			if !m.At.IsZero() {
				at := m.At.UTC()
				x.UndoneAt = &at
			}
		}
		list = append(list, x)
		counts[word]++
		switch word {
		case "not sent", "failed", "unproven", "refused", "unknown":
			open = true
		}
	}
	code := printer.ExitOK
	if open {
		code = printer.ExitPartial
	}
	if p.Is(printer.CSV) {
		// the records the console's upload page writes with e (ui/csvsafe/records)
		recs := make([][]string, len(files))
		for i := range files {
			recs[i] = records.RunFile(&files[i], undone)
		}
		// a Value, so --filter and --sort apply to them as to every listing
		if err := p.Show(printer.Value{Headers: records.RunFileHeader(), Rows: recs}); err != nil {
			return p.Fail(err)
		}
		return code
	}
	rows := make([][]string, len(list))
	for i, f := range list {
		rows[i] = []string{f.Path, f.Result, f.Detail, f.Local}
	}
	line := fmt.Sprintf("run %d, mode %s, project %s, run by %s: %s", runID, run.Mode, run.ProjectID,
		writejob.Local(run.ActorOSUser, run.ActorKey), plural.Count(len(list), "file"))
	for _, w := range []string{"uploaded", "renamed", "replaced", "re-uploaded", "deleted", "gone", "unknown", "skipped", "refused", "failed", "not sent", "unproven"} {
		if counts[w] > 0 {
			line += fmt.Sprintf(", %d %s", counts[w], w)
		}
	}
	if err := p.Show(printer.Value{JSON: list, Headers: []string{"PATH", "RESULT", "DETAIL", "LOCAL FILE"}, Rows: rows, Foot: sanitize.Line(line)}); err != nil {
		return p.Fail(err)
	}
	return code
}
