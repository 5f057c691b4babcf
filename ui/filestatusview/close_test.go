package filestatusview

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Leaving the page cancels its poll in flight (also while it waits for the
// vault budget): it spends nothing once nobody can see its answer.
func TestClosingCancelsPollInFlight(t *testing.T) {
	cancelled := make(chan struct{})
	f := &pagetest.Fake{GetFilesFn: func(ctx context.Context, _ []string) ([]api.FileDetail, error) {
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	}, BudgetStatus: api.BudgetStatus{Limit: 10, Remaining: 10}}
	p := New(pagetest.Env(t, f, false), "123e4567-e89b-12d3-a456-426614174000", Options{})
	p.SetSize(100, 20)
	cmd := p.Init()
	go drain(cmd)
	deadline := time.Now().Add(5 * time.Second)
	for f.Calls("GetFiles") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no poll started")
		}
		time.Sleep(time.Millisecond) // polling a condition, not timing it
	}
	p.(page.Closer).Close()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the poll in flight was not cancelled")
	}
}

// drain runs cmd and every command of its batches.
func drain(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			go drain(c)
		}
	}
}
