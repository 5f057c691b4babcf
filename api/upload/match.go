package upload

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// match pairs the file IDs of a response with the files sent. One ID per
// file is read in order. Fewer IDs happen under skip (an existing file of
// the same name is left alone and gets no ID): then the IDs' names, from
// get_files, say which files they belong to, and the others were skipped.
func (r *Runner) match(ctx context.Context, mode string, sent []store.JournalFile, ids []string) ([]store.FileOutcome, error) {
	out := make([]store.FileOutcome, len(sent))
	if len(ids) == len(sent) {
		for i, f := range sent {
			out[i] = store.FileOutcome{ID: f.ID, State: store.FileUploaded, FileID: ids[i]}
		}
		return out, nil
	}
	var names []api.ProjectFile
	if len(ids) > 0 {
		recs, err := r.API.GetFiles(ctx, ids)
		if err != nil {
			return nil, fmt.Errorf("the service returned %s for %s and their names could not be read: %w", plural.Count(len(ids), "file ID"), plural.Count(len(sent), "file"), err)
		}
		for _, it := range recs {
			if d := it.Value; !d.Failed() {
				names = append(names, api.ProjectFile{ID: d.FileID, Name: d.FileName})
			}
		}
	}
	taken := map[string]bool{}
	for i, f := range sent {
		out[i] = store.FileOutcome{ID: f.ID, State: store.FileSkipped, Reason: "a file of this name already exists (mode skip)"}
		if mode != string(api.DuplicateSkip) {
			out[i].Reason = "the service returned no file ID for it"
		}
		if c := pick(names, f.Name, mode, taken); c != nil {
			out[i] = store.FileOutcome{ID: f.ID, State: store.FileUploaded, FileID: c.ID}
		}
	}
	return out, nil
}

// pick returns the first candidate not yet taken whose name is the file's
// (or, under keep, the file's name with a " (N)" suffix), and takes it.
func pick(cands []api.ProjectFile, name, mode string, taken map[string]bool) *api.ProjectFile {
	for i := range cands {
		c := &cands[i]
		if taken[c.ID] || !sameName(c.Name, name, mode) {
			continue
		}
		taken[c.ID] = true
		return c
	}
	return nil
}

var keepSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(\d+\)$`) }) // on first use, not at start-up

func sameName(got, want, mode string) bool {
	if got == want {
		return true
	}
	if mode != string(api.DuplicateKeep) {
		return false
	}
	ext := path.Ext(want)
	stem, gotExt := strings.TrimSuffix(got, path.Ext(got)), path.Ext(got)
	return gotExt == ext && strings.TrimSuffix(want, ext) == keepSuffix().ReplaceAllString(stem, "") && keepSuffix().MatchString(stem)
}

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
