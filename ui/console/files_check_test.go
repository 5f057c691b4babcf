package console

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// countingSim is the simulator behind a counter of the requests that reach it.
func countingSim(t *testing.T) (*api.Client, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	c := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Now: func() time.Time { return pagetest.Now }},
		DefaultLimits: true, // the console's own client, as a user runs it
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				next.ServeHTTP(w, r)
			})
		}}).Client
	return c, &n
}

// drive delivers msg and every message its commands lead to, synchronously.
func drive(m *app.Model, msg tea.Msg) {
	queue := []tea.Msg{msg}
	for i := 0; len(queue) > 0 && i < 1000; i++ {
		next := queue[0]
		queue = queue[1:]
		if b, ok := next.(tea.BatchMsg); ok {
			for _, c := range b {
				if c != nil {
					queue = append(queue, c())
				}
			}
			continue
		}
		if next == nil {
			continue
		}
		if _, cmd := m.Update(next); cmd != nil {
			queue = append(queue, cmd())
		}
	}
}

// `:files hello,world` is refused before any request, with one line naming
// the values, as the headless `status nope` is (exit 2).
func TestFilesCommandRefusesNonUUIDs(t *testing.T) {
	c, n := countingSim(t)
	m, err := NewModel(context.Background(), Options{Backend: c, Conn: &account.Conn{Workspace: "W"}, Start: "audit"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	before := n.Load()
	drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":files hello,world")})
	drive(m, tea.KeyMsg{Type: tea.KeyEnter})
	if got := n.Load() - before; got != 0 {
		t.Errorf("%d requests spent on :files hello,world", got)
	}
	v := m.View()
	if !strings.Contains(v, `"hello", "world" are not file IDs`) || strings.Contains(v, "File status") {
		t.Errorf("want the error and no File status page:\n%s", v)
	}
}

// Text typed into File status's "file IDs" prompt is checked the same way:
// no request, the error named, the prompt still open with the text.
func TestFilesPromptRefusesNonUUIDs(t *testing.T) {
	c, n := countingSim(t)
	m, err := NewModel(context.Background(), Options{Backend: c, Conn: &account.Conn{Workspace: "W"}, Start: "files"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cmd := m.Init(); cmd != nil {
		drive(m, cmd())
	}
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	before := n.Load()
	drive(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("nope")})
	drive(m, tea.KeyMsg{Type: tea.KeyEnter})
	if got := n.Load() - before; got != 0 {
		t.Errorf("%d requests spent on the IDs \"nope\"", got)
	}
	v := m.View()
	if !strings.Contains(v, `"nope" is not a file ID`) || !strings.Contains(v, "file IDs: nope") {
		t.Errorf("want the error and the prompt with its text:\n%s", v)
	}
}

// The neighbour: `:bin hello` (the argument is a client-matter UUID) showed
// the whole bin as if nothing had been typed; it is refused the same way.
func TestBinCommandRefusesNonUUID(t *testing.T) {
	s := newScreen(t, false)
	tm := s.open(t, "audit", "", 120, 30, "1/")
	// The recycle bin's listings only: the audit view under the command
	// line may still be reading its own pages (that made this test flaky).
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":bin hello")})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, `"hello" is not a client-matter ID`)
	v := final(t, tm)
	if got := s.bin.Load(); got != 0 {
		t.Errorf("%d requests spent on :bin hello", got)
	}
	if strings.Contains(v, "Recycle bin") {
		t.Errorf("the recycle bin opened:\n%s", v)
	}
}
