package filestatus

// The upload journal's side of file status: its unfinished files, with the
// last status the journal knows, as rows of the tracker.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// AddJournal gives the tracked files their uploaded path and project, and
// adds the files the service never confirmed (not sent, upload failed,
// unproven) as rows of their own, keyed "journal:ROW": they have no file
// ID, so they are never polled, and their group is the journal's.
func (t *Tracker) AddJournal(rows []store.JournalFile, names map[string]string) {
	for _, r := range rows {
		path := r.Path
		if path == "" {
			path = r.Name
		}
		project := names[strings.ToLower(r.ProjectID)]
		if project == "" {
			project = r.ProjectID
		}
		var f *File
		if word, g, ok := Unsent(r); ok {
			id := fmt.Sprintf("journal:%d", r.ID)
			if _, dup := t.Index(id); dup {
				continue
			}
			t.byID[id] = len(t.Files)
			t.Files = append(t.Files, File{ID: id, Seen: true, Journal: word, JournalGroup: g})
			f = &t.Files[len(t.Files)-1]
			f.Name = t.cleaned(f, path, sentName)
		} else if i, ok := t.Index(r.FileID); ok {
			f = &t.Files[i]
		} else {
			continue
		}
		f.Path, f.Project = t.cleaned(f, path, sentPath), t.cleaned(f, project, sentProject)
		f.Run, f.ProjectID = r.RunID, r.ProjectID
	}
}

// AddUnfinished tracks the journal's unfinished files: the confirmed ones
// to poll, dated by their upload, with their paths and projects, and the
// ones never confirmed (AddJournal). The console's :files without IDs and
// `status --journal` both open them so, then fold in the service's answer.
func (t *Tracker) AddUnfinished(u Unfinished) {
	t.Add(u.IDs)
	t.SetUploaded(u.Times)
	t.AddJournal(u.Rows, u.Names)
}

// Journal is what the unfinished-files query reads of the upload journal;
// *store.Store satisfies it.
type Journal interface {
	CheckJournal() error
	UnfinishedFiles(profile string) ([]store.JournalFile, error)
	ProjectNames(profile string) (map[string]string, error)
}

// Unfinished is every unfinished file of a profile's journaled runs across
// projects, with what polling them needs.
type Unfinished struct {
	Rows []store.JournalFile
	// IDs are the files the service confirmed (the ones to poll), Times
	// their upload times by lower-case ID.
	IDs   []string
	Times map[string]time.Time
	// Names are the project names known without a request (the server's
	// strings: printers clean them).
	Names map[string]string
}

// LoadUnfinished reads the journal's unfinished files of profile. A damaged
// journal is said (CheckJournal), with what to do with the file, rather
// than read as fewer files or as a bare SQLite error. cachedListing is the
// projects page's cached body (api.ProjectListing), if any: names cost no
// request, and an error reading them only costs the names.
func LoadUnfinished(j Journal, profile string, cachedListing []byte) (Unfinished, error) {
	if err := j.CheckJournal(); err != nil {
		return Unfinished{}, err
	}
	rows, err := j.UnfinishedFiles(profile)
	if err != nil {
		return Unfinished{}, err
	}
	u := Unfinished{Rows: rows}
	u.IDs, u.Times = Confirmed(rows)
	snap, _ := j.ProjectNames(profile)
	u.Names = api.KnownProjectNames(snap, cachedListing)
	return u, nil
}

// Confirmed are the journal rows' files the service confirmed: their IDs
// (to poll) and upload times by lower-case ID (to date their status). A
// file never confirmed has nothing to ask the service about.
func Confirmed(rows []store.JournalFile) ([]string, map[string]time.Time) {
	var ids []string
	times := map[string]time.Time{}
	for _, f := range rows {
		if f.State != store.FileUploaded || f.FileID == "" {
			continue
		}
		ids = append(ids, f.FileID)
		times[strings.ToLower(f.FileID)] = f.UploadedAt
	}
	return ids, times
}

// RowFacts is a confirmed journal row's last known status: the service's
// answer d when it was asked now, else what the journal recorded of its
// last poll ("not_found", the status, deleted_at). Dated by its upload.
func RowFacts(r store.JournalFile, d api.FileDetail, asked bool) Facts {
	if asked {
		return FactsOf(d, r.UploadedAt)
	}
	if r.Status == "not_found" {
		return Facts{NotFound: true, Since: r.UploadedAt}
	}
	return Facts{Status: api.Status(r.Status), Replaced: !r.DeletedAt.IsZero(), Since: r.UploadedAt}
}

// ParseArg reads file IDs as people paste them (api.ParseIDs), each
// optionally followed by @EPOCH_SECONDS, its upload time as a project
// listing gave it: the console's Files tab opens File status so, its C
// says `status ID@EPOCH,...`, and `status` reads them alike, so both date
// the file from its upload. A repeated ID counts once.
func ParseArg(s string) ([]string, map[string]time.Time) {
	var ids []string
	times := map[string]time.Time{}
	seen := map[string]bool{}
	for _, tok := range api.ParseIDs(s) {
		id := tok
		if i := strings.LastIndexByte(tok, '@'); i > 0 {
			if secs, err := strconv.ParseInt(tok[i+1:], 10, 64); err == nil && secs > 0 {
				id = tok[:i]
				times[id] = time.Unix(secs, 0)
			}
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, times
}
