package upload

// What the service's file details say of uploaded files goes back into the
// journal: the processing status, the name there (keep renames), and
// deleted_at (a later upload of the same name superseded the file). After a
// run that sent files of one name from several folders, Settle asks at
// once, so that the run's report says which were replaced or renamed.

import (
	"context"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// JournalDetails is what a poll's answers write into the journal
// (store.SetFileDetails): "not_found" for a file the service no longer has,
// the processing status in lower case, the name and deleted_at for the
// others; nothing for a per-file error (it proves nothing about the file).
// The console's File status and `vaultdeck status --journal` both record
// their polls through it.
func JournalDetails(details []api.FileDetail) []store.FileDetailNote {
	out := make([]store.FileDetailNote, 0, len(details))
	for _, d := range details {
		switch {
		case d.Error == "not_found":
			out = append(out, store.FileDetailNote{FileID: d.FileID, Status: "not_found"})
		case !d.Failed():
			n := store.FileDetailNote{FileID: d.FileID, Status: strings.ToLower(string(d.ProcessingStatus)), Name: d.FileName}
			n.DeletedAt = d.SupersededAt()
			out = append(out, n)
		}
	}
	return out
}

// Settle asks the service about the files of one name that a run (or a
// resume) uploaded from several folders: which were superseded by a later
// one (mode replace) and which were renamed (keep). One get_files request,
// only when the outcome holds such files. What it learns goes into the
// journal and the outcome; when it cannot ask, a note says so and the
// journal's next poll (status --journal, File status) settles them.
func (r *Runner) Settle(ctx context.Context, out *Outcome) {
	byName := map[string][]int{}
	for i, f := range out.Uploaded {
		k := fmt.Sprintf("%d/%s", f.RunID, f.Name)
		byName[k] = append(byName[k], i)
	}
	var ids []string
	for _, idx := range byName {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			ids = append(ids, out.Uploaded[i].FileID)
		}
	}
	if len(ids) == 0 {
		return
	}
	recs, err := r.API.GetFiles(ctx, ids)
	details := api.Values(recs)
	if err == nil {
		err = r.Store.SetFileDetails(JournalDetails(details))
	}
	if err != nil {
		out.Notes = append(out.Notes, fmt.Sprintf("which of the %s of a same name were replaced or renamed could not be asked of the service (%v); `vaultdeck status --journal` asks again", plural.Count(len(ids), "uploaded file"), err))
		return
	}
	by := map[string]api.FileDetail{}
	for _, d := range details {
		by[strings.ToLower(d.FileID)] = d
	}
	kept := out.Uploaded[:0]
	for _, f := range out.Uploaded {
		d, ok := by[strings.ToLower(f.FileID)]
		switch {
		case ok && d.Superseded():
			f.DeletedAt = d.SupersededAt()
			f.Reason = "superseded by a later file of the same name in this upload (mode replace)"
			out.Replaced = append(out.Replaced, f)
			continue
		case ok && !d.Failed() && d.FileName != "" && d.FileName != f.Name:
			f.ServiceName = d.FileName
			out.Renamed = append(out.Renamed, f)
		}
		kept = append(kept, f)
	}
	out.Uploaded = kept
}
