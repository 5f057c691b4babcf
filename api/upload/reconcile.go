package upload

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// ClockSkew is how far the local and the service's clocks may disagree
// when a lost response is reconciled.
const ClockSkew = 5 * time.Minute

// reconcile lists what the project received since a batch whose response
// was lost began (less ClockSkew) and decides, file by file, what arrived:
// see decide.
//
// A start this machine's clock has not reached yet means the clock went
// back since (an NTP step, a restored VM snapshot): the service's upload
// time of a file that arrived is the true one, any amount before that
// start, so no window drawn from it can rule arrival out. The whole
// listing is read then (every file is before "began", so none is adopted:
// under keep they are unproven, and a re-send happens only where the mode
// makes it safe), rather than re-sending what did arrive as "(1)" copies.
func (r *Runner) reconcile(ctx context.Context, b store.JournalBatch, claimed map[string]bool) (decision, error) {
	since := b.BeganAt.Add(-ClockSkew)
	if b.BeganAt.After(r.now()) {
		since = time.Time{}
	}
	listed, err := r.API.FilesUploadedSince(ctx, b.Run.ProjectID, since)
	if err != nil {
		return decision{}, err
	}
	return decide(b, listed, claimed), nil
}

// decision is what a reconciliation found for a batch's pending files.
type decision struct {
	adopt     []store.FileOutcome // arrived: completed with their IDs
	unproven  []store.FileOutcome // neither provable nor safe to re-send
	resend    int                 // left pending, to be sent again
	ambiguous int                 // of resend: arrival could not be ruled out
}

// decide applies the reconciliation rule to one batch. The listing offers a
// file's name, size and upload time (whole seconds, the service's clock);
// it has no folder and no content hash, so those cannot be compared.
//
// A listed file is adopted as a pending file's only when all of these hold:
// its name is the file's (under keep, also the file's name renamed with a
// " (N)" suffix); its size is the file's; it was uploaded in or after the
// second the batch began; no journal record claims it; and it is the only
// unclaimed file of that name and size listed since the batch began less
// ClockSkew, with no other pending file of the batch of that name and size.
//
// Otherwise, when no unclaimed file of that name and size was listed in
// that window, the file did not arrive and is re-sent. When one or more
// could be it but are not proven, the file is re-sent where the mode makes
// that safe: replace (a re-send is a new version with this client's bytes,
// which is what the user asked for) and skip (the service then keeps an
// existing file of that name, which is what skip means). Under keep a
// re-send of a file that did arrive would create a "(1)" copy nobody asked
// for, so the file is marked unproven and named, for the user to check.
func decide(b store.JournalBatch, listed []api.ProjectFile, claimed map[string]bool) decision {
	var d decision
	mode := b.Run.Mode
	began := b.BeganAt.Truncate(time.Second)
	free := listed[:0:0]
	for _, c := range listed {
		if !claimed[strings.ToLower(c.ID)] {
			free = append(free, c)
		}
	}
	// Pending files of this batch that share a name and size cannot be
	// told apart by the listing either.
	twins := map[string]int{}
	key := func(name string, size int64) string { return fmt.Sprintf("%d/%s", size, baseOf(name, mode)) }
	for _, f := range b.Files {
		if f.State == store.FilePending {
			twins[key(f.Name, f.Size)]++
		}
	}
	for _, f := range b.Files {
		if f.State != store.FilePending {
			continue
		}
		var same, after []api.ProjectFile
		for _, c := range free {
			if sameName(c.Name, f.Name, mode) && int64(c.Size) == f.Size {
				same = append(same, c)
				if !c.UploadedAt.Time.Before(began) {
					after = append(after, c)
				}
			}
		}
		switch {
		case len(same) == 0:
			d.resend++
		case len(same) == 1 && len(after) == 1 && twins[key(f.Name, f.Size)] == 1:
			d.adopt = append(d.adopt, store.FileOutcome{ID: f.ID, State: store.FileUploaded, FileID: after[0].ID, UploadedAt: after[0].UploadedAt.Time})
		case mode == string(api.DuplicateKeep):
			d.unproven = append(d.unproven, store.FileOutcome{ID: f.ID, State: store.FileUnproven, Reason: fmt.Sprintf(
				"its request's answer was lost and the project lists %s of its name and size since then that cannot be told apart from it; "+
					"not re-sent, since under keep a re-send would make a copy: check the project and upload it again if it is missing", plural.Count(len(same), "file"))})
		default:
			d.resend++
			d.ambiguous++
		}
	}
	return d
}

// baseOf is a name without a keep-mode " (N)" suffix when mode is keep.
func baseOf(name, mode string) string {
	if mode != string(api.DuplicateKeep) {
		return name
	}
	ext := path.Ext(name)
	return keepSuffix().ReplaceAllString(strings.TrimSuffix(name, ext), "") + ext
}
