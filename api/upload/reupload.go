package upload

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// Reupload sends journaled files again from their local paths with mode
// replace (a new version of each, root_file_id pointing at the first), as
// one run per project, and retires the old rows so File status tracks the
// new IDs. It returns the old file ID -> new file ID of each file sent.
func (r *Runner) Reupload(ctx context.Context, files []store.JournalFile) (Outcome, map[string]string, error) {
	var out Outcome
	byProject := map[string][]store.JournalFile{}
	for _, f := range files {
		byProject[f.ProjectID] = append(byProject[f.ProjectID], f)
	}
	projects := make([]string, 0, len(byProject))
	for p := range byProject {
		projects = append(projects, p)
	}
	sort.Strings(projects)
	replaced := map[string]string{}
	for _, pid := range projects {
		var plan Plan
		oldByLocal := map[string]string{}
		for _, f := range byProject[pid] {
			fi, err := os.Stat(f.Local)
			switch {
			case err != nil:
				plan.Refused = append(plan.Refused, Refusal{Local: f.Local, Reason: "the journaled local file " + errText(err)})
				continue
			case !fi.Mode().IsRegular():
				plan.Refused = append(plan.Refused, Refusal{Local: f.Local, Reason: "is no longer a regular file"})
				continue
			}
			path := f.Path
			if path == "" {
				path = f.Name
			}
			plan.Files = append(plan.Files, File{Local: f.Local, Name: f.Name, Path: path, Size: fi.Size()})
			plan.Bytes += fi.Size()
			oldByLocal[f.Local] = f.FileID
		}
		o, err := r.Upload(ctx, pid, plan, api.DuplicateReplace)
		out.RunIDs = append(out.RunIDs, o.RunIDs...)
		out.Uploaded = append(out.Uploaded, o.Uploaded...)
		out.Skipped = append(out.Skipped, o.Skipped...)
		out.Refused = append(out.Refused, o.Refused...)
		out.Failed = append(out.Failed, o.Failed...)
		out.Unproven = append(out.Unproven, o.Unproven...)
		out.Notes = append(out.Notes, o.Notes...)
		out.Unfinished += o.Unfinished
		out.Errors = append(out.Errors, o.Errors...)
		var old []string
		for _, f := range o.Uploaded {
			if id := oldByLocal[f.Local]; id != "" {
				replaced[id] = f.FileID
				old = append(old, id)
			}
		}
		if err := r.Store.MarkReplaced(old); err != nil {
			return out, replaced, err
		}
		if err != nil {
			return out, replaced, fmt.Errorf("project %s: %w", pid, err)
		}
	}
	return out, replaced, nil
}

// Summary is a one-line account of an outcome for status lines.
func (o Outcome) Summary() string {
	parts := []string{fmt.Sprintf("%d uploaded", len(o.Uploaded))}
	if n := len(o.Skipped); n > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", n))
	}
	if n := len(o.Refused); n > 0 {
		parts = append(parts, fmt.Sprintf("%d refused", n))
	}
	if n := len(o.Failed); n > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", n))
	}
	if n := len(o.Unproven); n > 0 {
		parts = append(parts, fmt.Sprintf("%d not known to have arrived (unproven)", n))
	}
	if o.Unfinished > 0 {
		parts = append(parts, fmt.Sprintf("%d batches unfinished (vaultdeck upload --resume)", o.Unfinished))
	}
	return strings.Join(parts, ", ")
}
