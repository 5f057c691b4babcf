package cli

import (
	"fmt"
	"strconv"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
)

// uploadsRun lists every file of one run of the profile with its outcome:
// what was uploaded, replaced by a file of its name, renamed, skipped,
// refused, failed, not sent or unproven, and why. Exit 3 while anything of
// it is not known to be done.
func (r *runner) uploadsRun(arg string) int {
	runID, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || runID <= 0 {
		return r.usage("RUN is a run number from `vaultdeck uploads`, not %q", arg)
	}
	st, profile, err := r.journal()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	if err := st.CheckJournal(); err != nil {
		return r.fail(err)
	}
	runs, err := st.UploadRuns(profile)
	if err != nil {
		return r.fail(err)
	}
	found := -1
	for i, x := range runs {
		if x.ID == runID {
			found = i
		}
	}
	if found < 0 {
		return r.fail(fmt.Errorf("profile %s has no upload run %d; `vaultdeck uploads` lists its runs", profile, runID))
	}
	files, err := st.RunFiles(runID)
	if err != nil {
		return r.fail(err)
	}
	type fileJSON struct {
		Path   string `json:"file_path"`
		Local  string `json:"local_path"`
		Result string `json:"result"`
		FileID string `json:"file_id,omitempty"`
		Detail string `json:"detail,omitempty"`
		Size   int64  `json:"size"`
	}
	list := make([]fileJSON, 0, len(files))
	counts := map[string]int{}
	open := false
	for _, f := range files {
		word, detail := upload.Result(f)
		path := f.Path
		if path == "" {
			path = f.Name
		}
		list = append(list, fileJSON{path, f.Local, word, f.FileID, detail, f.Size})
		counts[word]++
		switch word {
		case "not sent", "failed", "unproven", "refused":
			open = true
		}
	}
	code := ExitOK
	if open {
		code = ExitPartial
	}
	if r.jsonOut() {
		if c := r.emitJSON(list); c != ExitOK {
			return c
		}
		return code
	}
	t := r.table("PATH", "RESULT", "DETAIL", "LOCAL FILE")
	for _, f := range list {
		t.row(f.Path, f.Result, f.Detail, f.Local)
	}
	if err := t.flush(); err != nil {
		return r.fail(err)
	}
	if !r.g.CSV {
		line := fmt.Sprintf("run %d, mode %s, project %s: %s", runID, runs[found].Mode, runs[found].ProjectID, plural.Count(len(list), "file"))
		for _, w := range []string{"uploaded", "renamed", "replaced", "re-uploaded", "skipped", "refused", "failed", "not sent", "unproven"} {
			if counts[w] > 0 {
				line += fmt.Sprintf(", %d %s", counts[w], w)
			}
		}
		fmt.Fprintln(r.env.Stdout, oneLine(line))
	}
	return code
}
