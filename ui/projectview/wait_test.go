package projectview

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.5, seen by hand over serve (120x40, 80x24, 60x16): with the
// vault budget spent, a project's Files tab read 'loading… (the line above
// says what it waits for)' under a line that said only '⣾ loading'. The
// page's line names the wait, as the projects list and the bin do.
func TestProjectLoadSaysWhatItWaitsFor(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1}, DefaultLimits: true, Client: api.Config{Limits: api.Limits{Vault: 1}}})
	pid, err := e.Sim.AddProject(sim.ProjectSpec{Name: "Acme Merger"})
	if err != nil {
		t.Fatal(err)
	}
	env := pagetest.Env(t, e.Client, false)
	env.Now = time.Now // the client's budget runs on the real clock
	p := FromRecord(env, api.Project{ID: pid, Name: "Acme Merger"})
	p.SetSize(100, 20)
	p, _ = pagetest.Drive(p, p.Init()) // the users: the one request of this minute
	_, cmd := p.Update(pagetest.Key("tab"))
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan struct{})
	go func() { runCmds(ctx, cmd); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(p.View(), "for the vault budget") {
		if time.Now().After(deadline) {
			t.Fatalf("the files wait for the budget; the page does not say so:\n%s", p.View())
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, not timing it
	}
	p.(page.Closer).Close() // leaving cancels the wait
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting request was not cancelled")
	}
}

// runCmds runs cmd and the commands of any batch, ticks aside.
func runCmds(ctx context.Context, cmd tea.Cmd) {
	if cmd == nil || ctx.Err() != nil {
		return
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			runCmds(ctx, c)
		}
	}
}
