package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
)

// Issue 19 case 11: the user stays on the project page while it is
// deleted. Once the project is in the recycle bin the page about it
// closes (the list below is shown again) and the status line says where
// the project went and how to get there.
func TestDeletedProjectPageCloses(t *testing.T) {
	inBin := make(chan struct{})
	acme := api.Project{ID: "p1", Name: "Acme Merger", FilesCount: 2}
	f := &pagetest.Fake{
		ProjectsFn: func(context.Context, api.ProjectQuery) (*api.ProjectPage, error) {
			pg := &api.ProjectPage{Projects: []api.Project{acme}}
			pg.Pagination.Page, pg.Pagination.TotalPages, pg.Pagination.Total = 1, 1, 1
			return pg, nil
		},
		ProjectUsersFn: func(context.Context, string) (*api.ProjectUsers, error) { return &api.ProjectUsers{}, nil },
		DeleteProjectFn: func(ctx context.Context, id string) (*api.DeleteProjectResult, error) {
			return &api.DeleteProjectResult{Message: "Project deletion is in progress"}, nil
		},
		RecycleBinFn: func(ctx context.Context, q api.RecycleBinQuery) (*api.RecycleBin, error) {
			<-inBin
			return &api.RecycleBin{Items: []api.RecycleBinEntry{{ID: "rb1", VaultProject: api.RecycledProject{ID: "p1", Name: "Acme Merger"}}}}, nil
		},
	}
	env := pagetest.Env(t, f, false)
	env.TaskPoll = time.Millisecond
	m := app.New(env.WithConn(&account.Conn{Profile: "p", Where: "eu", Workspace: "W"}), app.Config{Start: "projects", Routes: []app.Route{
		{Name: "projects", New: projectsview.New},
		{Name: "project", New: projectview.New, FromRecord: projectview.Record},
	}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(110, 16))
	waitFor(t, tm, "1 of 1 loaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Users")
	tm.Send(burst("D"))
	waitFor(t, tm, "Delete project")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Acme Merger"), Paste: true})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "will appear in the recycle bin within seconds")
	close(inBin)
	waitFor(t, tm, "Acme Merger is in the recycle bin", ":bin")
	tm.Send(burst("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*app.Model)
	if got := fm.Top().Title(); got != "projects" {
		t.Errorf("the deleted project's page is still on top: %q\n%s", got, fm.View())
	}
	if v := fm.View(); strings.Contains(v, "Project deletion is in progress") {
		t.Errorf("the page still says the deletion is in progress:\n%s", v)
	}
}
