package recyclebinview

import (
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

// While a load waits for the vault budget the page says so, with the time
// left, rather than spinning with "loading".
func TestLoadingSaysWhatItWaitsFor(t *testing.T) {
	c := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1}, DefaultLimits: true, Client: api.Config{Limits: api.Limits{Vault: 1}}}).Client
	env := pagetest.Env(t, c, false)
	env.Now = time.Now // the client's budget runs on the real clock
	p := New(env, "")
	p.SetSize(120, 20)
	p, _ = pagetest.Drive(p, p.Init()) // spends the one request of this minute
	_, cmd := p.Update(pagetest.Key("r"))
	done := make(chan tea.Msg, 1)
	go func() { done <- runAll(cmd) }()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(p.View(), "for the vault budget") {
		if time.Now().After(deadline) {
			t.Fatalf("no wait shown:\n%s", p.View())
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, not timing it
	}
	if v := p.View(); !strings.Contains(v, "waiting 5") && !strings.Contains(v, "waiting 6") {
		t.Errorf("the wait's seconds are missing:\n%s", v)
	}
	p.(page.Closer).Close() // leaving cancels the wait: nothing is spent
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting request was not cancelled")
	}
}

// runAll runs cmd and the commands of any batch, returning the last message.
func runAll(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var last tea.Msg
		for _, c := range b {
			if m := runAll(c); m != nil {
				last = m
			}
		}
		return last
	}
	return msg
}
