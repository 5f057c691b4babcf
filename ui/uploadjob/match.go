package uploadjob

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
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
			return nil, fmt.Errorf("the service returned %d file IDs for %d files and their names could not be read: %w", len(ids), len(sent), err)
		}
		for _, d := range recs {
			if !d.Failed() {
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

var keepSuffix = regexp.MustCompile(` \(\d+\)$`)

func sameName(got, want, mode string) bool {
	if got == want {
		return true
	}
	if mode != string(api.DuplicateKeep) {
		return false
	}
	ext := path.Ext(want)
	stem, gotExt := strings.TrimSuffix(got, path.Ext(got)), path.Ext(got)
	return gotExt == ext && strings.TrimSuffix(want, ext) == keepSuffix.ReplaceAllString(stem, "") && keepSuffix.MatchString(stem)
}

// ClockSkew is how far the local and the service's clocks may disagree
// when a lost response is reconciled.
const ClockSkew = 5 * time.Minute

// reconcile finds which pending files of a batch whose response was lost
// arrived anyway: a file of the project with the same name (under keep,
// also with a numeric suffix), uploaded at or after the batch began, and
// not already claimed by the journal. Those are completed with their IDs;
// the rest stay pending to be re-sent with the batch's own mode.
func (r *Runner) reconcile(ctx context.Context, b store.JournalBatch, claimed map[string]bool) ([]store.FileOutcome, error) {
	// The batch's start is the local clock's; the listing has the
	// service's. Allow for their disagreeing: files the journal already
	// holds are excluded anyway, so the wider window can only catch a
	// same-named file someone else uploaded in those minutes.
	listed, err := r.API.FilesUploadedSince(ctx, b.Run.ProjectID, b.BeganAt.Add(-ClockSkew))
	if err != nil {
		return nil, err
	}
	// Oldest first: the first arrival of a name is the one this batch sent.
	sort.SliceStable(listed, func(i, j int) bool { return listed[i].UploadedAt.Before(listed[j].UploadedAt.Time) })
	taken := map[string]bool{}
	for id := range claimed {
		taken[id] = true
	}
	var out []store.FileOutcome
	for _, f := range b.Files {
		if f.State != store.FilePending {
			continue
		}
		if c := pick(listed, f.Name, b.Run.Mode, taken); c != nil {
			out = append(out, store.FileOutcome{ID: f.ID, State: store.FileUploaded, FileID: c.ID, UploadedAt: c.UploadedAt.Time})
		}
	}
	return out, nil
}
