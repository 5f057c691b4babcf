package filestatus

// The triage groups: what a vault admin acts on (ready, processing, stuck,
// failed recoverable or not, missing, replaced), and the one spelling of a
// status everywhere (the console's Files tab and File status, the CLI's
// tables). Pure functions: no IO.

import (
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
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
	// Unknown: the service answered with a processing status the
	// interface never named (or none): shown as received, final (nothing
	// the client knows of comes of it), never processing for ever.
	Unknown
	NumGroups
)

var names = [NumGroups]string{"ready", "processing", "stuck", "failed (recoverable)", "failed (unrecoverable)", "missing", "replaced", "unknown"}

// Filters are the triage filters a person picks (the console's 1-5,
// `status --journal --group`): one group each, failed taking both.
var Filters = []string{"ready", "processing", "stuck", "failed", "missing"}

// FilterShows reports whether filter (one of Filters; "" is all) keeps a
// file of group g.
func FilterShows(filter string, g Group) bool {
	switch filter {
	case "ready":
		return g == Ready
	case "processing":
		return g == Processing
	case "stuck":
		return g == Stuck
	case "failed":
		return g == FailedRecoverable || g == FailedUnrecoverable
	case "missing":
		return g == Missing
	}
	return true
}

func (g Group) String() string {
	if g < 0 || g >= NumGroups {
		return "unknown"
	}
	return names[g]
}

// Facts are what the classification knows of one file.
type Facts struct {
	Status api.Status
	// NotFound: the service does not give the file (get_files' not_found,
	// another per-file error, or no element for it in the answer).
	NotFound bool
	// Replaced: a later upload of the file's name superseded it (the
	// detail's deleted_at, see Replaced). It outranks the processing status
	// its old record still carries.
	Replaced bool
	// Since is when its current status began (its upload time when known).
	Since time.Time
	// Answered: the service gave the file an element (a file not answered
	// yet has no status and is processing; an answer without one is
	// unknown).
	Answered bool
}

// Classify puts a file in its group: the one classification of the
// console's File status and Files tab, `status --watch`, `status
// --journal` and the upload report, so none of them special-cases a
// replaced or missing file. A non-final status held longer than
// stuckAfter is stuck.
func Classify(f Facts, now time.Time, stuckAfter time.Duration) Group {
	s := f.Status
	switch {
	case f.NotFound:
		return Missing
	case f.Replaced:
		return Replaced
	case s.Is(api.StatusReadyToQuery), s.Is(api.StatusReadyToReview):
		return Ready
	case s.Is(api.StatusRecoverableFailure):
		return FailedRecoverable
	case s.Is(api.StatusUnrecoverableFailure):
		return FailedUnrecoverable
	case !Known(s) && (s != "" || f.Answered):
		return Unknown
	}
	if stuckAfter > 0 && CanStick(s) && !f.Since.IsZero() && now.Sub(f.Since) > stuckAfter {
		return Stuck
	}
	return Processing
}

// FactsOf reads a get_files answer: any per-file error counts as not
// found (it proves the service does not give the file now), deleted_at as
// replaced. since is the caller's: the detail carries no status time.
func FactsOf(d api.FileDetail, since time.Time) Facts {
	if d.Failed() {
		return Facts{NotFound: true, Since: since}
	}
	return Facts{Status: d.ProcessingStatus, Replaced: d.Superseded(), Since: since, Answered: true}
}

// Known reports whether s is one of the processing statuses the interface
// names (any case); any other is shown as received and counted unknown.
func Known(s api.Status) bool {
	for _, k := range []api.Status{api.StatusUploaded, api.StatusProcessing, api.StatusReadyToQuery,
		api.StatusReadyToReview, api.StatusRecoverableFailure, api.StatusUnrecoverableFailure} {
		if s.Is(k) {
			return true
		}
	}
	return false
}

// Word is the file's status in one word for a printer: "not found" for a
// file the service does not give, "replaced" for a superseded one, else
// the processing status's one spelling.
func (f Facts) Word() string {
	switch {
	case f.NotFound:
		return "not found"
	case f.Replaced:
		return "replaced"
	}
	return Word(f.Status)
}

// Final reports whether a file in group g is settled: nothing more will
// come of asking the service about it again.
func (g Group) Final() bool { return g != Processing && g != Stuck }

// CanStick reports whether a file in status s waits on the service and so
// can become stuck: a known status that is not ready and not failed (an
// unknown one is unknown, however long it is held). A recoverable failure held
// for days is failed, never also stuck: one file, one group, one word.
func CanStick(s api.Status) bool {
	return (s == "" || Known(s)) && !s.Is(api.StatusReadyToQuery) && !s.Is(api.StatusReadyToReview) &&
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
	if c[Unknown] > 0 {
		parts = append(parts, fmt.Sprintf("unknown %d", c[Unknown]))
	}
	return parts
}

// Unsent places a journaled file that has no processing status to go by,
// because the service never confirmed it, in the group a person acts on:
// "not sent" (an interrupted run: `upload --resume` sends it) is stuck,
// "upload failed" (the service refused its request) is failed and
// recoverable by an upload, "unproven" (its arrival neither proven nor ruled
// out: a closed batch's unproven file, or a pending one whose request went
// out and whose answer did not prove it, which carries that reason) is
// missing. ok is false for any other journal state (uploaded: its
// processing status decides).
func Unsent(f store.JournalFile) (word string, g Group, ok bool) {
	switch f.State {
	case store.FilePending:
		if f.Reason != "" {
			return "unproven", Missing, true
		}
		return "not sent", Stuck, true
	case store.FileFailed:
		return "upload failed", FailedRecoverable, true
	case store.FileUnproven:
		return "unproven", Missing, true
	}
	return "", 0, false
}
