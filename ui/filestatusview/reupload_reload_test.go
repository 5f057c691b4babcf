package filestatusview

import (
	"slices"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.5, seen by hand (vd against a simulator, 120x40): files marked
// on a project's Files tab, re-uploaded from file status (new versions,
// new IDs); esc back to the project read '2 marked' over the old rows
// until r. A re-upload changes a project's files as an upload does, so
// its task says so as the upload's does: the cached listings are dropped
// and the project pages below reload when shown again
// (TestReplacedFilesLeaveNoMarks: the reload drops the marks).
func TestReuploadReloadsTheProjectPages(t *testing.T) {
	env := pagetest.Env(t, newFake(), false)
	task := ReuploadTask(env, 0, []store.JournalFile{{FileID: "f1", ProjectID: "p1", Name: "a.pdf"}})
	if !slices.Contains(task.Reloads, person.CacheProjects) || !slices.Contains(task.Invalidates, person.CacheProjects) {
		t.Errorf("the re-upload task reloads %q and drops %q: a project page below keeps the replaced rows (and their marks)", task.Reloads, task.Invalidates)
	}
}
