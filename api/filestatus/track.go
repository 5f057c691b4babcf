// Package filestatus is the one home of file status: what state a set of
// files is in and when to ask the service again. It holds the tracker (per
// file state across polls, in batches within the service's get_files
// limit), the cadence within the vault budget, the unfinished files of the
// upload journal with their last known status, and the triage groups with
// their one classification. The console's File status view and `vaultdeck
// status --watch`/`--journal` are two printers of it. No IO but the
// journal's reads; no terminal.
package filestatus

import (
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// File is what the tracker knows about one requested ID. Its text fields
// went through the tracker's clean function when they arrived.
type File struct {
	ID      string // as given, sent to the server
	ShownID string // cleaned: IDs come from a paste and may carry escapes
	// Name is cleaned once when it arrives, not on every frame: with 100,000
	// rows the render path must not re-scan names.
	Name     string
	Status   api.Status
	Seen     bool // the server answered for this ID at least once
	NotFound bool // error "not_found": missing or not accessible
	// Replaced: the detail carries deleted_at, so a later upload of the
	// file's name superseded it. Finished: never processing, never stuck.
	Replaced bool
	Missing  bool   // asked for, but the response had no element for it
	ErrText  string // any other per-ID error, cleaned, shown verbatim
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
	// listing knows it), both cleaned.
	Path, Project string
	// ContentType and DeletedAt are the last answer's, as sent (the
	// export's record; the screen does not show them).
	ContentType string
	DeletedAt   *api.Time
	// Journal is set for a journaled file the service never confirmed (not
	// sent, upload failed, unproven): it has no file ID to poll, its ID is
	// "journal:ROW", and its status word and group come from the journal
	// (Unsent).
	Journal      string
	JournalGroup Group
	// Run and ProjectID are the journal's run and project of the file
	// (AddJournal), as journaled.
	Run       int64
	ProjectID string
	// Sent keeps the text as it arrived where cleaning changed it: the
	// screen shows the cleaned text, an export writes what was sent (its
	// writer, ui/csvsafe, cleans it for a file as every export's cells
	// are: line breaks kept, quoted). nil, the common case, costs a
	// pointer, not a second copy of every name.
	Sent *Sent
}

// Sent is a file's text as it arrived, where it differs from what is
// shown (File.Sent).
type Sent struct{ Name, Status, Err, Path, Project string }

// AsSent is f's text as it arrived: Sent's where cleaning changed it,
// else the fields themselves.
func (f *File) AsSent() Sent {
	s := Sent{Name: f.Name, Status: string(f.Status), Err: f.ErrText, Path: f.Path, Project: f.Project}
	if r := f.Sent; r != nil {
		for _, x := range []struct {
			to   *string
			from string
		}{{&s.Name, r.Name}, {&s.Status, r.Status}, {&s.Err, r.Err}, {&s.Path, r.Path}, {&s.Project, r.Project}} {
			if x.from != "" {
				*x.to = x.from
			}
		}
	}
	return s
}

// cleaned is s cleaned for the screen; when cleaning changed it, s is kept
// in the field of f.Sent that field picks (and a kept value it replaces is
// forgotten).
func (t *Tracker) cleaned(f *File, s string, field func(*Sent) *string) string {
	c := t.clean(s)
	if c != s || (f.Sent != nil && *field(f.Sent) != "") {
		if f.Sent == nil {
			f.Sent = &Sent{}
		}
		*field(f.Sent) = s
		if c == s {
			*field(f.Sent) = ""
		}
	}
	return c
}

func sentName(s *Sent) *string    { return &s.Name }
func sentStatus(s *Sent) *string  { return &s.Status }
func sentErr(s *Sent) *string     { return &s.Err }
func sentPath(s *Sent) *string    { return &s.Path }
func sentProject(s *Sent) *string { return &s.Project }

// Terminal reports whether polling this ID again is pointless. IDs the
// server says it cannot find count as terminal: re-asking about them every
// few seconds would spend the shared vault budget on a known answer.
func (f *File) Terminal() bool {
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

// Tracker holds the state of every requested ID across polls. It is plain
// data with no IO, so the polling rules are testable without a terminal.
type Tracker struct {
	// Files are the tracked files in the order they were added. Printers
	// read them; only the tracker's methods change them.
	Files []File
	byID  map[string]int // by lower-case ID: the service may answer in another case
	poll  int            // number of applied polls
	// cursor rotates batch selection so that, when a poll cannot cover every
	// pending ID (large sets, tight budget), the next poll continues where the
	// previous one stopped instead of re-asking the first thousand.
	cursor int
	// clean makes a server's or a paste's string safe to print (the
	// printers' sanitiser): applied once when the string arrives.
	clean func(string) string
}

// NewTracker tracks ids (a repeated ID, in any case, once). clean is
// applied to every string that arrives (IDs, names, statuses, errors); nil
// keeps them as they are.
func NewTracker(ids []string, clean func(string) string) *Tracker {
	if clean == nil {
		clean = func(s string) string { return s }
	}
	t := &Tracker{byID: make(map[string]int, len(ids)), clean: clean}
	t.Add(ids)
	return t
}

// Index is the position in Files of id (any case).
func (t *Tracker) Index(id string) (int, bool) {
	i, ok := t.byID[strings.ToLower(id)]
	return i, ok
}

// Add appends IDs not yet tracked (pasting more IDs into a running view) and
// returns how many were new.
func (t *Tracker) Add(ids []string) int {
	n := 0
	for _, id := range ids {
		if _, ok := t.Index(id); ok {
			continue
		}
		t.byID[strings.ToLower(id)] = len(t.Files)
		t.Files = append(t.Files, File{ID: id, ShownID: t.clean(id)})
		n++
	}
	return n
}

// Unseen counts IDs the service has not answered for yet.
func (t *Tracker) Unseen() int {
	n := 0
	for i := range t.Files {
		if !t.Files[i].Seen {
			n++
		}
	}
	return n
}

// Pending counts IDs that still need polling.
func (t *Tracker) Pending() int {
	n := 0
	for i := range t.Files {
		if !t.Files[i].Terminal() {
			n++
		}
	}
	return n
}

// Batch picks up to max IDs for the next poll, continuing the rotation. With
// all=false only pending IDs are chosen; all=true (a manual refresh after
// everything settled) walks every ID.
func (t *Tracker) Batch(max int, all bool) []string {
	n := len(t.Files)
	if n == 0 || max <= 0 {
		return nil
	}
	out := make([]string, 0, min(max, n))
	start := t.cursor % n
	i := start
	for range n {
		if all || !t.Files[i].Terminal() {
			out = append(out, t.Files[i].ID)
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

// Apply records one poll's answers. requested lists the IDs that were asked
// for, so an ID the server silently left out is noticed instead of polled
// forever. It returns how many files changed status.
func (t *Tracker) Apply(requested []string, details []api.FileDetail, now time.Time) int {
	t.poll++
	answered := make(map[string]struct{}, len(details))
	changed := 0
	for _, d := range details {
		i, ok := t.Index(d.FileID)
		if !ok {
			continue // an ID we never asked about; nothing to show it against
		}
		answered[strings.ToLower(d.FileID)] = struct{}{}
		if t.update(&t.Files[i], d, now) {
			changed++
		}
	}
	for _, id := range requested {
		if _, ok := answered[strings.ToLower(id)]; ok {
			continue
		}
		if i, ok := t.Index(id); ok {
			f := &t.Files[i]
			if !f.Seen {
				f.Since = now
			}
			f.Seen, f.Missing = true, true
		}
	}
	return changed
}

// update folds one answer into f and reports whether the shown status changed.
func (t *Tracker) update(f *File, d api.FileDetail, now time.Time) bool {
	first := !f.Seen
	prev := f.Label()
	f.Seen, f.Missing = true, false
	if d.Failed() {
		f.Replaced = false // the answer says nothing of a live file: its error is the news
		f.NotFound = d.Error == "not_found"
		f.ErrText = ""
		if !f.NotFound {
			f.ErrText = t.cleaned(f, d.Error, sentErr)
		}
	} else {
		f.NotFound, f.ErrText = false, ""
		f.Replaced = d.Superseded()
		f.ContentType, f.DeletedAt = d.ContentType, d.DeletedAt
		f.Status = api.Status(t.cleaned(f, string(d.ProcessingStatus), sentStatus))
		if d.FileName != "" {
			f.Name = t.cleaned(f, d.FileName, sentName)
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
	if !sameLabel(prev, f.Label()) {
		f.Since, f.SinceSeen = now, false
		f.ChangedPoll = t.poll
		return true
	}
	return false
}

// Label is the status as the user sees it; changes are judged on it so that
// a casing difference between endpoints never counts as a change.
func (f *File) Label() string {
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

// Changed reports whether f changed status in the latest poll.
func (t *Tracker) Changed(f *File) bool { return f.ChangedPoll != 0 && f.ChangedPoll == t.poll }

// SetUploaded records known upload times (by ID, any case). A file already
// shown with a first-seen age and the same status since is re-dated.
func (t *Tracker) SetUploaded(times map[string]time.Time) {
	if len(times) == 0 {
		return
	}
	lower := make(map[string]time.Time, len(times))
	for id, at := range times {
		lower[strings.ToLower(id)] = at
	}
	for i := range t.Files {
		f := &t.Files[i]
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

// Remove forgets the given IDs (replaced by a re-upload).
func (t *Tracker) Remove(ids map[string]bool) {
	kept := t.Files[:0]
	for _, f := range t.Files {
		if !ids[f.ID] {
			kept = append(kept, f)
		}
	}
	t.Files = kept
	t.byID = make(map[string]int, len(kept))
	for i, f := range kept {
		t.byID[strings.ToLower(f.ID)] = i
	}
	t.cursor = 0
}

// Facts are what the classification knows of f. A file not answered yet
// has none (processing); one the service gives no answer or an error for
// is not found.
func (f *File) Facts() Facts {
	if !f.Seen {
		return Facts{}
	}
	return Facts{Status: f.Status, NotFound: f.NotFound || f.Missing || f.ErrText != "", Replaced: f.Replaced, Since: f.Since, Answered: true}
}

// Group puts f in its triage group (Classify; a journaled file the
// service never confirmed is in the journal's group, a file not answered
// yet counts as processing).
func (f *File) Group(now time.Time, stuckAfter time.Duration) Group {
	if f.Journal != "" {
		return f.JournalGroup
	}
	return Classify(f.Facts(), now, stuckAfter)
}

// StuckAt is when f becomes stuck, if it can: a file seen waiting on the
// service (any status CanStick allows: a file left in "uploaded" for an
// hour is as stuck as one left in "processing") with a known start.
func (f *File) StuckAt(after time.Duration) (time.Time, bool) {
	if after <= 0 || f.Journal != "" || !f.Seen || f.NotFound || f.Missing || f.ErrText != "" || f.Replaced || f.Since.IsZero() || !CanStick(f.Status) {
		return time.Time{}, false
	}
	return f.Since.Add(after), true
}

// Stuck reports whether f is in the stuck group at now: the console's
// flag, tones and group keys and the CLI's lines all ask this, so a file
// has one group and one word.
func (f *File) Stuck(now time.Time, after time.Duration) bool {
	at, ok := f.StuckAt(after)
	return ok && now.After(at)
}
