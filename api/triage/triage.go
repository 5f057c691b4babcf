// Package triage sorts files into what a vault admin acts on: ready,
// processing, stuck, failed (recoverable or not) and missing, and spells
// statuses one way everywhere (the console's Files tab and File status, and
// the CLI's tables). Pure functions: no IO, no Bubble Tea.
package triage

import (
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Word is the one spelling of a processing status on screen: lower case,
// as get_files sends it (the project listing sends upper case). The API's
// own value is kept in --json output.
func Word(s api.Status) string {
	if strings.TrimSpace(string(s)) == "" {
		return "unknown"
	}
	return strings.ToLower(string(s))
}

// Group is a triage group.
type Group int

// The groups, in the order the summary line shows them.
const (
	Ready Group = iota
	Processing
	Stuck
	FailedRecoverable
	FailedUnrecoverable
	Missing
	// Replaced: a later upload of the file's name superseded it (the
	// service's deleted_at). Finished, never processing or stuck; last so
	// the groups before it keep their numbers.
	Replaced
	NumGroups
)

var names = [NumGroups]string{"ready", "processing", "stuck", "failed (recoverable)", "failed (unrecoverable)", "missing", "replaced"}

func (g Group) String() string {
	if g < 0 || g >= NumGroups {
		return "unknown"
	}
	return names[g]
}

// Classify puts a file in its group. since is when its current status began
// (its upload time when known); a non-final status held longer than
// stuckAfter is stuck. notFound is get_files' not_found.
func Classify(s api.Status, notFound bool, since, now time.Time, stuckAfter time.Duration) Group {
	switch {
	case notFound:
		return Missing
	case s.Is(api.StatusReadyToQuery), s.Is(api.StatusReadyToReview):
		return Ready
	case s.Is(api.StatusRecoverableFailure):
		return FailedRecoverable
	case s.Is(api.StatusUnrecoverableFailure):
		return FailedUnrecoverable
	}
	if stuckAfter > 0 && CanStick(s) && !since.IsZero() && now.Sub(since) > stuckAfter {
		return Stuck
	}
	return Processing
}

// CanStick reports whether a file in status s waits on the service and so
// can become stuck: not ready and not failed. A recoverable failure held
// for days is failed, never also stuck: one file, one group, one word.
func CanStick(s api.Status) bool {
	return !s.Is(api.StatusReadyToQuery) && !s.Is(api.StatusReadyToReview) &&
		!s.Is(api.StatusRecoverableFailure) && !s.Is(api.StatusUnrecoverableFailure)
}

// Counts is how many files each group holds.
type Counts [NumGroups]int

// Line is the summary line: every group, failures split by kind when
// there are any.
func (c Counts) Line() string { return strings.Join(c.Parts(), " · ") }

// Parts are the summary line's items, one per group, so that a narrow
// terminal can wrap between them instead of cutting one.
func (c Counts) Parts() []string {
	failed := fmt.Sprintf("failed %d", c[FailedRecoverable]+c[FailedUnrecoverable])
	if c[FailedRecoverable]+c[FailedUnrecoverable] > 0 {
		failed += fmt.Sprintf(" (recoverable %d, unrecoverable %d)", c[FailedRecoverable], c[FailedUnrecoverable])
	}
	parts := []string{fmt.Sprintf("ready %d", c[Ready]), fmt.Sprintf("processing %d", c[Processing]),
		fmt.Sprintf("stuck %d", c[Stuck]), failed, fmt.Sprintf("missing %d", c[Missing])}
	if c[Replaced] > 0 {
		parts = append(parts, fmt.Sprintf("replaced %d", c[Replaced])) // rare: said only when there are some
	}
	return parts
}

// Unsent places a journaled file that has no processing status to go by,
// because the service never confirmed it, in the group a person acts on:
// "not sent" (an interrupted run: `upload --resume` sends it) is stuck,
// "upload failed" (the service refused its request) is failed and
// recoverable by an upload, "unproven" (its arrival neither proven nor ruled
// out) is missing. ok is false for any other journal state (uploaded: its
// processing status decides).
func Unsent(state string) (word string, g Group, ok bool) {
	switch state {
	case "pending":
		return "not sent", Stuck, true
	case "failed":
		return "upload failed", FailedRecoverable, true
	case "unproven":
		return "unproven", Missing, true
	}
	return "", 0, false
}
