package filestatus

// The upload journal's side of file status: its unfinished files, with the
// last status the journal knows, as rows of the tracker.

import (
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/store"
)

// AddJournal gives the tracked files their uploaded path and project, and
// adds the files the service never confirmed (not sent, upload failed,
// unproven) as rows of their own, keyed "journal:ROW": they have no file
// ID, so they are never polled, and their group is the journal's.
func (t *Tracker) AddJournal(rows []store.JournalFile, names map[string]string) {
	for _, r := range rows {
		project := t.clean(names[strings.ToLower(r.ProjectID)])
		if project == "" {
			project = t.clean(r.ProjectID)
		}
		path := t.clean(r.Path)
		if path == "" {
			path = t.clean(r.Name)
		}
		if word, g, ok := Unsent(r.State); ok {
			id := fmt.Sprintf("journal:%d", r.ID)
			if _, dup := t.Index(id); dup {
				continue
			}
			t.byID[id] = len(t.Files)
			t.Files = append(t.Files, File{ID: id, Name: path, Path: path, Project: project, Seen: true,
				Journal: word, JournalGroup: g})
			continue
		}
		if i, ok := t.Index(r.FileID); ok {
			t.Files[i].Path, t.Files[i].Project = path, project
		}
	}
}
