package app_test

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

// TestDeletionOutcomeSurvivesEsc: the user confirms a deletion and presses
// esc while the DELETE is in flight; the root still shows the outcome, says
// where the project will appear, and an open recycle bin refreshes once the
// project is in it.
func TestDeletionOutcomeSurvivesEsc(t *testing.T) {
	release := make(chan struct{})
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
			<-release
			return &api.DeleteProjectResult{Message: "Project deletion is in progress"}, nil
		},
		RecycleBinFn: func(ctx context.Context, q api.RecycleBinQuery) (*api.RecycleBin, error) {
			if q.Name != "" { // the deletion's follow-up checks while the service moves the project
				<-inBin
			}
			select {
			case <-inBin:
				return &api.RecycleBin{Items: []api.RecycleBinEntry{{ID: "rb1", VaultProject: api.RecycledProject{ID: "p1", Name: "Acme Merger"}}}}, nil
			default:
				return &api.RecycleBin{}, nil
			}
		},
	}
	env := pagetest.Env(t, f, false)
	env.Cache = &pagetest.MapCache{}
	env.TaskPoll = time.Millisecond
	m := app.New(env.WithConn(&account.Conn{Profile: "p", Where: "eu", Workspace: "W"}), app.Config{Start: "projects", Routes: []app.Route{
		{Name: "projects", New: projectsview.New},
		{Name: "project", New: projectview.New, FromRecord: projectview.Record},
		{Name: "bin", New: recyclebinview.New},
	}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(110, 16))
	waitFor(t, tm, "1 of 1 loaded")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Users")
	tm.Send(burst("D"))
	waitFor(t, tm, "Delete project")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("Acme Merger"), Paste: true})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "delete project Acme Merger") // the task's footer line
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})        // leave the project page while the DELETE is in flight
	tm.Send(burst(":bin"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Recycle bin · 0 entries")
	close(release)
	waitFor(t, tm, "will appear in the recycle bin within seconds")
	close(inBin)
	waitFor(t, tm, "Recycle bin · 1 entry", "is in the recycle bin")
	tm.Send(burst("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if _, _, ok := env.Cache.Get(person.CacheProjects); ok {
		t.Error("the cached project list survived the deletion")
	}
}
