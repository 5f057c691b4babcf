package projectview

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.5, seen by hand (vd against a simulator, 120x40): two files
// marked on the project's Files tab, opened in file status and re-uploaded
// there (each becomes a new version with a new ID); esc back to the
// project still read '2 marked' over the old rows until r. The page
// reloads what tasks change under person.CacheProjects when shown again (as
// after an upload), and the reload drops the marks of rows it no longer
// holds; the re-upload task's side is TestReuploadReloadsTheProjectPages.
func TestReplacedFilesLeaveNoMarks(t *testing.T) {
	replaced := false
	f := fake()
	f.ProjectFilesFn = func(context.Context, string, api.FileQuery) (*api.FilePage, error) {
		fp := &api.FilePage{Files: []api.ProjectFile{
			{ID: "f1", Name: "memo.pdf", ProcessingStatus: "PROCESSING"},
			{ID: "f2", Name: "deal.docx", ProcessingStatus: "PROCESSING"},
			{ID: "f3", Name: "note.txt", ProcessingStatus: "READY_TO_QUERY"},
		}}
		if replaced {
			fp.Files[0].ID, fp.Files[1].ID = "f1-v2", "f2-v2"
		}
		return fp, nil
	}
	p := openProject(t, f, false)
	p, _ = pagetest.Press(p, "tab")
	p, _ = pagetest.Press(p, "x")
	p, _ = pagetest.Press(p, "x")
	if v := p.View(); !strings.Contains(v, "2 marked") {
		t.Fatalf("two files marked:\n%s", v)
	}
	r, ok := p.(page.Reloader)
	if !ok {
		t.Fatal("the project page is no page.Reloader: a task that replaces its files cannot have it list them again")
	}
	if !r.Shows(person.CacheProjects) {
		t.Fatal("the page does not say it shows what an upload or a re-upload changes (person.CacheProjects)")
	}
	replaced = true
	p, _ = pagetest.Drive(p, r.Reload())
	v := p.View()
	if strings.Contains(v, "marked") {
		t.Errorf("the marked rows were replaced, the marks stayed:\n%s", v)
	}
	if n := f.Calls("ProjectUsers"); n != 1 {
		t.Errorf("a reload of the files asked for the users again (%d calls)", n)
	}
}
