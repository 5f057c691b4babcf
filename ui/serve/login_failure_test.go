package serve

import (
	"context"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/console"
)

// Issue 29.6: the login screen said "That token was not accepted" when the
// service could not be reached. It says which failure the check met
// (api.CheckFailure), and speaks of the token only on a 401 or 403.
func TestLoginSaysWhichFailure(t *testing.T) {
	f := startServer(t)
	for _, c := range []struct {
		err  *api.Error
		want string
	}{
		{&api.Error{Kind: api.KindNetwork, Endpoint: "GET /api/whoami", Message: "dial tcp: connection refused"}, "could not be reached"},
		{&api.Error{Kind: api.KindServer, Endpoint: "GET /api/whoami", Status: 502}, "server error"},
		{&api.Error{Kind: api.KindTimeout, Endpoint: "GET /api/whoami", Received: -1}, "did not answer in time"},
		{&api.Error{Kind: api.KindUnauthorized, Endpoint: "GET /api/whoami", Status: 401}, "That token was not accepted"},
	} {
		m, err := newLogin(context.Background(), f.srv, &session{key: f.srv.keys.List[1]}, console.Options{Theme: "auto", Renderer: lipgloss.NewRenderer(io.Discard)})
		if err != nil {
			t.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
		m.Update(loginResult{err: c.err})
		v := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
		if !strings.Contains(v, c.want) {
			t.Errorf("%v: want %q on the screen:\n%s", c.err.Kind, c.want, v)
		}
		if c.err.Kind != api.KindUnauthorized && strings.Contains(v, "not accepted") {
			t.Errorf("%v: the screen blames the token:\n%s", c.err.Kind, v)
		}
	}
}
