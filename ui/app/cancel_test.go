package app_test

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
)

// TestLeavingOrRefreshingCancelsRequests: a request waiting (for budget or
// the server) is cancelled when a refresh supersedes it and when its page
// is left, so it spends nothing of the shared vault budget.
func TestLeavingOrRefreshingCancelsRequests(t *testing.T) {
	cancelled := make(chan struct{}, 4)
	f := &pagetest.Fake{
		ProjectsFn: func(context.Context, api.ProjectQuery) (*api.ProjectPage, error) {
			pg := &api.ProjectPage{}
			pg.Pagination.Page, pg.Pagination.TotalPages = 1, 1
			return pg, nil
		},
		RecycleBinFn: func(ctx context.Context, _ api.RecycleBinQuery) (*api.RecycleBin, error) {
			<-ctx.Done() // never answers: as if waiting for budget
			cancelled <- struct{}{}
			return nil, ctx.Err()
		},
	}
	env := pagetest.Env(t, f, false)
	m := app.New(env.WithConn(&account.Conn{Profile: "p", Where: "eu", Workspace: "W"}), app.Config{Start: "projects", Routes: []app.Route{
		{Name: "projects", New: projectsview.New},
		{Name: "bin", New: recyclebinview.New},
	}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(110, 16))
	waitFor(t, tm, "0 of 0 loaded")
	tm.Send(burst(":bin"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Recycle bin")
	tm.Send(burst("r"))
	expectCancel(t, cancelled, "the superseded load")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	expectCancel(t, cancelled, "the load of the page left")
	tm.Send(burst("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

func expectCancel(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s was not cancelled", what)
	}
}
