package upload

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
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
			if why, err := r.supersedes(f); err != nil {
				return out, replaced, err
			} else if why != "" {
				plan.Refused = append(plan.Refused, Refusal{Local: f.Local, Reason: why})
				continue
			}
			// Lstat: a link put where the file was is not followed (the
			// send opens it without following links, as planned here).
			fi, err := os.Lstat(f.Local)
			switch {
			case err != nil:
				plan.Refused = append(plan.Refused, Refusal{Local: f.Local, Reason: "the journaled local file " + errText(err)})
				continue
			case fi.Mode()&os.ModeSymlink != 0:
				plan.Refused = append(plan.Refused, Refusal{Local: f.Local, Reason: "is a symbolic link now (links are not followed)"})
				continue
			case !fi.Mode().IsRegular():
				plan.Refused = append(plan.Refused, Refusal{Local: f.Local, Reason: "is no longer a regular file"})
				continue
			}
			path := f.Path
			if path == "" {
				path = f.Name
			}
			plan.Files = append(plan.Files, File{Local: f.Local, Name: f.Name, Path: path, Size: fi.Size(), Planned: identityOf(fi)})
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
		out.Replaced = append(out.Replaced, o.Replaced...)
		out.Renamed = append(out.Renamed, o.Renamed...)
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

// supersedes says why re-uploading f with mode replace would send over
// another file, or "": the service replaces whichever live file carries
// the name, so a file a sibling of its name already superseded, or one
// whose name another journaled file of the project now carries (two
// folders, one name), must not go again.
func (r *Runner) supersedes(f store.JournalFile) (string, error) {
	if !f.DeletedAt.IsZero() {
		return "was replaced: a later upload of its name superseded it, and re-uploading it would supersede that file in turn; rename it and upload it as a new file", nil
	}
	if f.ServiceName != "" && f.ServiceName != f.Name {
		return fmt.Sprintf("the service renamed it %q (a file named %s was there); a re-upload sends it as %s and would supersede that file: rename it and upload it as a new file", f.ServiceName, f.Name, f.Name), nil
	}
	same, err := r.Store.Namesakes(f.ProjectID, f.Name)
	if err != nil {
		return "", err
	}
	for _, o := range same {
		if o.ServiceName != "" && o.ServiceName != o.Name {
			continue // renamed by the service: not the file a replace of this name hits
		}
		if o.ID != f.ID && o.Local != f.Local && !strings.EqualFold(o.FileID, f.FileID) {
			return fmt.Sprintf("another file of this name, %q (from %s), was uploaded to the project too; re-uploading this one with mode replace would supersede it: rename this file and upload it as a new one", o.Path, o.Local), nil
		}
	}
	return "", nil
}

// Summary is a one-line account of an outcome for status lines.
func (o Outcome) Summary() string {
	parts := []string{fmt.Sprintf("%d uploaded", len(o.Uploaded))}
	if n := len(o.Renamed); n > 0 {
		parts[0] += fmt.Sprintf(" (%d renamed)", n)
	}
	if n := len(o.Replaced); n > 0 {
		parts = append(parts, fmt.Sprintf("%d replaced by a file of the same name in this upload", n))
	}
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
		parts = append(parts, plural.Count(o.Unfinished, "batch")+" unfinished (vaultdeck upload --resume)")
	}
	return strings.Join(parts, ", ")
}
