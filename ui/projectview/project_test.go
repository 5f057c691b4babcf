package projectview

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

func str(s string) *string { return &s }

func fake() *pagetest.Fake {
	return &pagetest.Fake{
		ProjectUsersFn: func(context.Context, string) (*api.ProjectUsers, error) {
			u := &api.ProjectUsers{Status: "COMPLETED"}
			u.Data.Users = []api.ProjectUser{
				{UserID: "u1", Email: "owner@firm.test", Name: "Olga Owner", AccessLevel: "MANAGE"},
				{UserID: "u2", Email: "reader@firm.test", Name: "Rita \x1b[2JReader", AccessLevel: "READ"},
			}
			return u, nil
		},
		ProjectFilesFn: func(_ context.Context, _ string, q api.FileQuery) (*api.FilePage, error) {
			fp := &api.FilePage{Files: []api.ProjectFile{
				{ID: "f1", Name: "memo\x1b]52;c;ZXZpbA==\x07.pdf", ProcessingStatus: "READY_TO_QUERY", Size: 2048},
				{ID: "f2", Name: "deal.docx", ProcessingStatus: "PROCESSING", Size: 10},
			}}
			if len(q.Statuses) == 1 {
				fp.Files = fp.Files[1:]
			}
			return fp, nil
		},
	}
}

func openProject(t *testing.T, f *pagetest.Fake, readOnly bool) page.Page {
	env := pagetest.Env(t, f, readOnly)
	p := FromRecord(env, api.Project{ID: "p1", Name: "Acme Merger", FilesCount: 2, CreatorEmail: "owner@firm.test"})
	p.SetSize(100, 20)
	p, _ = pagetest.Drive(p, p.Init())
	return p
}

func TestUsersTabMarksOwnerAndFilesLoadLazily(t *testing.T) {
	f := fake()
	p := openProject(t, f, false)
	v := p.View()
	if !strings.Contains(v, "owner") || !strings.Contains(v, "Rita Reader") || f.Calls("ProjectFiles") != 0 {
		t.Fatalf("users tab (files calls %d):\n%s", f.Calls("ProjectFiles"), v)
	}
	p, _ = pagetest.Press(p, "tab")
	p, _ = pagetest.Press(p, "shift+tab")
	p, _ = pagetest.Press(p, "tab")
	if f.Calls("ProjectFiles") != 1 || f.Calls("ProjectUsers") != 1 {
		t.Errorf("tabs should load once: files %d users %d", f.Calls("ProjectFiles"), f.Calls("ProjectUsers"))
	}
	v = p.View()
	if strings.ContainsAny(v, "\x1b\x07") || !strings.Contains(v, "memo.pdf") {
		t.Fatalf("files tab not sanitized:\n%q", v)
	}
	p, _ = pagetest.Press(p, "f")
	if v := p.View(); strings.Contains(v, "memo.pdf") || !strings.Contains(v, "status: uploaded") {
		t.Errorf("status filter:\n%s", v)
	}
}

func TestSendFilesToStatusRoute(t *testing.T) {
	p := openProject(t, fake(), false)
	p, _ = pagetest.Press(p, "tab")
	_, out := pagetest.Press(p, "s")
	if len(out) != 1 || out[0] != (page.Open{Route: "files", Arg: "f1,f2"}) {
		t.Fatalf("got %v", out)
	}
}

func TestReadOnlyDisablesDelete(t *testing.T) {
	f := fake()
	f.DeleteProjectFn = func(context.Context, string) (*api.DeleteProjectResult, error) {
		t.Fatal("delete called in a read-only session")
		return nil, nil
	}
	p := openProject(t, f, true)
	p, _ = pagetest.Press(p, "D")
	if strings.Contains(p.View(), "Delete project") || p.(page.InputCapturer).CapturesInput() {
		t.Fatal("read-only session opened the delete dialog")
	}
	for _, b := range p.Help() {
		if b.Enabled() && b.Help().Desc == "delete project" {
			t.Error("help offers delete in read-only")
		}
	}
}

func TestDeleteOutcomes(t *testing.T) {
	cases := []struct {
		name   string
		result *api.DeleteProjectResult
		want   string
	}{
		{"accepted", &api.DeleteProjectResult{Message: "Project deletion is in progress"}, "Acme Merger will appear in the recycle bin within seconds"},
		{"refused", &api.DeleteProjectResult{Error: "Example projects cannot be deleted"}, "refused: Example projects cannot be deleted"},
		{"partial", &api.DeleteProjectResult{Error: "Project deletion partially failed due to processing conflicts",
			Details: &api.DeleteProjectDetails{FailedFolders: 2, FailedFiles: 5}}, "failed folders: 2, failed files: 5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := fake()
			var deleted string
			f.DeleteProjectFn = func(_ context.Context, id string) (*api.DeleteProjectResult, error) {
				deleted = id
				return c.result, nil
			}
			p := openProject(t, f, false)
			p, _ = pagetest.Press(p, "D")
			if v := p.View(); !strings.Contains(v, "Acme Merger") || !strings.Contains(v, "2 files") {
				t.Fatalf("dialog:\n%s", v)
			}
			p, _ = pagetest.Type(p, "Acme")
			p, _ = pagetest.Press(p, "enter") // mismatch: nothing happens
			if deleted != "" {
				t.Fatal("deleted on a partial name")
			}
			p, _ = pagetest.Type(p, " Merger")
			p, out := pagetest.Press(p, "enter")
			if v := p.View(); !strings.Contains(v, "deleting") {
				t.Errorf("no sign of the running deletion:\n%s", v)
			}
			p, done := pagetest.RunTasks(p, out)
			if deleted != "p1" || len(done) != 1 {
				t.Fatalf("deleted %q tasks %v", deleted, done)
			}
			if (c.name == "accepted") != (done[0].Outcome.Then != nil) {
				t.Errorf("follow-up task %v for %s", done[0].Outcome.Then, c.name)
			}
			if v := p.View(); !strings.Contains(v, c.want) {
				t.Errorf("outcome not shown: want %q in\n%s", c.want, v)
			}
		})
	}
}

func TestDeleteCancelled(t *testing.T) {
	f := fake()
	p := openProject(t, f, false)
	p, _ = pagetest.Press(p, "D")
	p, out := pagetest.Press(p, "esc")
	if f.Calls("DeleteProject") != 0 || len(out) != 1 || strings.Contains(p.View(), "Type") {
		t.Errorf("cancel: calls %d out %v", f.Calls("DeleteProject"), out)
	}
}

func TestFilesPageOnScroll(t *testing.T) {
	f := fake()
	var cursors []string
	f.ProjectFilesFn = func(_ context.Context, _ string, q api.FileQuery) (*api.FilePage, error) {
		cursors = append(cursors, q.Cursor)
		fp := &api.FilePage{Files: []api.ProjectFile{{ID: "a" + q.Cursor}, {ID: "b" + q.Cursor}}}
		if q.Cursor == "" {
			fp.Pagination = api.CursorPagination{HasMore: true, NextCursor: str("c2")}
		}
		return fp, nil
	}
	p := openProject(t, f, false)
	p, _ = pagetest.Press(p, "tab")
	p, _ = pagetest.Press(p, "down")
	if strings.Join(cursors, "|") != "|c2" || p.(*Model).Table.Len() != 4 {
		t.Errorf("cursors %q", cursors)
	}
}

// A tab whose load failed shows the error where its rows would be, with r to
// retry; it never reads as a project without users.
func TestFailedTabIsNotEmpty(t *testing.T) {
	f := fake()
	users := f.ProjectUsersFn
	f.ProjectUsersFn = func(context.Context, string) (*api.ProjectUsers, error) {
		return nil, errors.New("the service answered 503")
	}
	p := openProject(t, f, false)
	if v := p.View(); strings.Contains(v, "nothing to show") || !strings.Contains(v, "503") || !strings.Contains(v, "r retries") {
		t.Fatalf("failed users tab:\n%s", v)
	}
	f.ProjectUsersFn = users
	p, _ = pagetest.Press(p, "r")
	if v := p.View(); !strings.Contains(v, "Olga Owner") {
		t.Fatalf("after retry:\n%s", v)
	}
}
