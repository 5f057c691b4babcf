package filestatus

import (
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/triage"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// fileState is what the view knows about one requested ID.
type fileState struct {
	ID      string // as given, sent to the server
	ShownID string // sanitised: IDs come from a paste and may carry escapes
	// Name is sanitised once when it arrives, not on every frame: with 100,000
	// rows the render path must not re-scan names.
	Name     string
	Status   api.Status
	Seen     bool // the server answered for this ID at least once
	NotFound bool // error "not_found": missing or not accessible
	// Replaced: the detail carries deleted_at, so a later upload of the
	// file's name superseded it. Finished: never processing, never stuck.
	Replaced bool
	Missing  bool   // asked for, but the response had no element for it
	ErrText  string // any other per-ID error, sanitised, shown verbatim
	// Since is when the file was first seen in its current status. The API has
	// no status timestamp, so "time in status" is measured by this console.
	Since time.Time
	// Uploaded is the file's upload time in the service's clock, when the
	// opener knew it (listing, journal); it dates the first status seen.
	Uploaded time.Time
	// SinceSeen: Since is only when this console first saw the file (no
	// upload time known, status unchanged since), shown as such.
	SinceSeen bool
	// ChangedPoll is the poll number in which the status last changed; the row
	// is marked while it equals the latest poll.
	ChangedPoll int
	// From the upload journal (`:files` without IDs): the folder path that
	// was uploaded (file_paths, shown instead of the bare name, so a/b/x.pdf
	// and c/x.pdf differ) and the project (its name where the cached
	// listing knows it), both sanitised.
	Path, Project string
	// Journal is set for a journaled file the service never confirmed (not
	// sent, upload failed, unproven): it has no file ID to poll, its ID is
	// "journal:ROW", and its status word and group come from the journal
	// (triage.Unsent).
	Journal      string
	JournalGroup triage.Group
}

// terminal reports whether polling this ID again is pointless. IDs the
// server says it cannot find count as terminal: re-asking about them every
// few seconds would spend the shared vault budget on a known answer.
func (f fileState) terminal() bool {
	if f.Journal != "" {
		return true // nothing to ask the service: it never gave an ID
	}
	if !f.Seen {
		return false
	}
	if f.NotFound || f.Missing || f.ErrText != "" || f.Replaced {
		return true
	}
	return f.Status.Terminal()
}

// tracker holds the state of every requested ID across polls. It is plain
// data with no IO, so the polling rules are testable without Bubble Tea.
type tracker struct {
	files []fileState
	byID  map[string]int
	poll  int // number of applied polls
	// cursor rotates batch selection so that, when a poll cannot cover every
	// pending ID (large sets, tight budget), the next poll continues where the
	// previous one stopped instead of re-asking the first thousand.
	cursor int
}

func newTracker(ids []string) *tracker {
	t := &tracker{files: make([]fileState, len(ids)), byID: make(map[string]int, len(ids))}
	for i, id := range ids {
		t.files[i] = fileState{ID: id, ShownID: sanitize.Line(id)}
		t.byID[id] = i
	}
	return t
}

// add appends IDs not yet tracked (pasting more IDs into a running view) and
// returns how many were new.
func (t *tracker) add(ids []string) int {
	n := 0
	for _, id := range ids {
		if _, ok := t.byID[id]; ok {
			continue
		}
		t.byID[id] = len(t.files)
		t.files = append(t.files, fileState{ID: id, ShownID: sanitize.Line(id)})
		n++
	}
	return n
}

// unseen counts IDs the service has not answered for yet.
func (t *tracker) unseen() int {
	n := 0
	for i := range t.files {
		if !t.files[i].Seen {
			n++
		}
	}
	return n
}

// pending counts IDs that still need polling.
func (t *tracker) pending() int {
	n := 0
	for i := range t.files {
		if !t.files[i].terminal() {
			n++
		}
	}
	return n
}

// batch picks up to max IDs for the next poll, continuing the rotation. With
// all=false only pending IDs are chosen; all=true (a manual refresh after
// everything settled) walks every ID.
func (t *tracker) batch(max int, all bool) []string {
	n := len(t.files)
	if n == 0 || max <= 0 {
		return nil
	}
	out := make([]string, 0, min(max, n))
	start := t.cursor % n
	i := start
	for range n {
		if all || !t.files[i].terminal() {
			out = append(out, t.files[i].ID)
			if len(out) == max {
				i = (i + 1) % n
				break
			}
		}
		i = (i + 1) % n
	}
	t.cursor = i
	return out
}

// apply records one poll's answers. requested lists the IDs that were asked
// for, so an ID the server silently left out is noticed instead of polled
// forever. It returns how many files changed status.
func (t *tracker) apply(requested []string, details []api.FileDetail, now time.Time) int {
	t.poll++
	answered := make(map[string]struct{}, len(details))
	changed := 0
	for _, d := range details {
		i, ok := t.byID[d.FileID]
		if !ok {
			continue // an ID we never asked about; nothing to show it against
		}
		answered[d.FileID] = struct{}{}
		if t.update(&t.files[i], d, now) {
			changed++
		}
	}
	for _, id := range requested {
		if _, ok := answered[id]; ok {
			continue
		}
		if i, ok := t.byID[id]; ok {
			f := &t.files[i]
			if !f.Seen {
				f.Since = now
			}
			f.Seen, f.Missing = true, true
		}
	}
	return changed
}

// update folds one answer into f and reports whether the shown status changed.
func (t *tracker) update(f *fileState, d api.FileDetail, now time.Time) bool {
	first := !f.Seen
	prev := f.label()
	f.Seen, f.Missing = true, false
	if d.Failed() {
		f.NotFound = d.Error == "not_found"
		f.ErrText = ""
		if !f.NotFound {
			f.ErrText = sanitize.Line(d.Error)
		}
	} else {
		f.NotFound, f.ErrText = false, ""
		f.Replaced = d.DeletedAt != nil
		f.Status = api.Status(sanitize.Line(string(d.ProcessingStatus)))
		if d.FileName != "" {
			f.Name = sanitize.Line(d.FileName)
		}
	}
	if first {
		// A file has been in its first status we see at least since it was
		// uploaded: with the upload time the age is the service's, and an
		// old processing file is stuck at once; without it, first seen.
		f.Since, f.SinceSeen = now, true
		if !f.Uploaded.IsZero() && !f.NotFound {
			f.Since, f.SinceSeen = f.Uploaded, false
		}
		return false // a first answer is not a change the user needs flagged
	}
	if !sameLabel(prev, f.label()) {
		f.Since, f.SinceSeen = now, false
		f.ChangedPoll = t.poll
		return true
	}
	return false
}

// label is the status as the user sees it; changes are judged on it so that
// a casing difference between endpoints never counts as a change.
func (f fileState) label() string {
	switch {
	case !f.Seen:
		return "waiting"
	case f.NotFound:
		return "not found"
	case f.Missing:
		return "no answer"
	case f.ErrText != "":
		return f.ErrText
	case f.Replaced:
		return "replaced"
	}
	return string(f.Status)
}

func sameLabel(a, b string) bool { return api.Status(a).Is(api.Status(b)) }

// changed reports whether f changed status in the latest poll.
func (t *tracker) changed(f *fileState) bool { return f.ChangedPoll != 0 && f.ChangedPoll == t.poll }

// setUploaded records known upload times (by ID, any case). A file already
// shown with a first-seen age and the same status since is re-dated.
func (t *tracker) setUploaded(times map[string]time.Time) {
	if len(times) == 0 {
		return
	}
	lower := make(map[string]time.Time, len(times))
	for id, at := range times {
		lower[strings.ToLower(id)] = at
	}
	for i := range t.files {
		f := &t.files[i]
		at, ok := lower[strings.ToLower(f.ID)]
		if !ok || at.IsZero() {
			continue
		}
		f.Uploaded = at
		if f.Seen && f.SinceSeen && !f.NotFound {
			f.Since, f.SinceSeen = at, false
		}
	}
}

// remove forgets the given IDs (replaced by a re-upload).
func (t *tracker) remove(ids map[string]bool) {
	kept := t.files[:0]
	for _, f := range t.files {
		if !ids[f.ID] {
			kept = append(kept, f)
		}
	}
	t.files = kept
	t.byID = make(map[string]int, len(kept))
	for i, f := range kept {
		t.byID[f.ID] = i
	}
	t.cursor = 0
}
