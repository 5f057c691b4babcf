package upload

// Limits before sending (issue 44): an upload reads the project's
// metadata first (one get_metadata) and refuses, before anything is
// journaled or sent, what would pass the project's file count or size
// limit, with the numbers. The service would refuse a batch part-way
// instead, leaving the project half uploaded.

import (
	"context"
	"fmt"

	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
)

// Metadata is the one call the check makes.
type Metadata interface {
	GetMetadata(ctx context.Context, projectID string) (*api.ProjectMetadata, error)
}

// LimitError is an upload refused for a project's limit.
type LimitError struct {
	ProjectID       string
	What            string // "files" or "size"
	Holds, Max, Add int64
}

func (e *LimitError) Error() string {
	if e.What == "files" {
		return fmt.Sprintf("refused before anything was sent: project %s allows %s files and holds %s, so %s more fit; this upload adds %s",
			e.ProjectID, humanize.Comma(e.Max), humanize.Comma(e.Holds), humanize.Comma(max(e.Max-e.Holds, 0)), humanize.Comma(e.Add))
	}
	return fmt.Sprintf("refused before anything was sent: project %s allows %s and holds %s, so %s more fit; this upload adds %s",
		e.ProjectID, humanize.Bytes(uint64(e.Max)), humanize.Bytes(uint64(e.Holds)), humanize.Bytes(uint64(max(e.Max-e.Holds, 0))), humanize.Bytes(uint64(e.Add)))
}

// Adds is what a plan would add to a project at the least, under mode,
// given the names the project holds (nil: not known, every file counted as
// new only under keep, where the service never skips or swaps): a skip or
// a replace of a name the project holds adds no file, and its bytes are
// not counted (a replace swaps one size for another).
func Adds(plan Plan, mode api.DuplicateMode, names map[string]bool) (files, bytes int64) {
	seen := map[string]bool{}
	for _, f := range plan.Files {
		if mode != api.DuplicateKeep && (names == nil || names[f.Name] || seen[f.Name]) {
			continue
		}
		seen[f.Name] = true
		files++
		bytes += f.Size
	}
	return files, bytes
}

// CheckLimits reads projectID's metadata and refuses plan when it would
// pass either limit (a *LimitError). A limit the answer does not give
// (0, or not a number) is not checked; any other error is the metadata
// not read, which the caller says (the service still refuses what passes
// a limit, part-way).
func CheckLimits(ctx context.Context, svc Metadata, projectID string, plan Plan, mode api.DuplicateMode) (*api.ProjectMetadata, error) {
	m, err := svc.GetMetadata(ctx, projectID)
	if err != nil {
		return nil, fmt.Errorf("the project's limits could not be read: %w", err)
	}
	var names map[string]bool
	if len(m.FileNames) > 0 || m.FileCount == 0 {
		names = map[string]bool{}
		for _, n := range m.FileNames {
			names[n] = true
		}
	}
	files, bytes := Adds(plan, mode, names)
	if n, hold := int64(m.MaxFileCount), int64(m.FileCount); n > 0 && hold >= 0 && hold+files > n {
		return m, &LimitError{ProjectID: projectID, What: "files", Holds: hold, Max: n, Add: files}
	}
	if n, hold := int64(m.MaxProjectSize), int64(m.ProjectSize); n > 0 && hold >= 0 && hold+bytes > n {
		return m, &LimitError{ProjectID: projectID, What: "size", Holds: hold, Max: n, Add: bytes}
	}
	return m, nil
}
