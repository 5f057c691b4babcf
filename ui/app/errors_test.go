package app

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// The status line keeps a short form; `!` shows the last errors whole, with
// cause, endpoint and time, in a pane that scrolls.
func TestErrorsInFull(t *testing.T) {
	m, _ := newApp(t, false)
	cause := errors.New("dial tcp 10.0.0.1:443: connect: connection refused")
	long := strings.Repeat("the service could not be reached ", 8) + "(end of message)"
	err := fmt.Errorf("the recycle bin could not be loaded: %w",
		&api.Error{Kind: api.KindNetwork, Endpoint: "GET /api/v1/vault/workspace/recycle_bin", Message: long, Err: cause})
	send(m, page.StatusMsg{Err: err})
	v := m.View()
	if !strings.Contains(v, "! shows it whole") || strings.Contains(v, "(end of message)") {
		t.Fatalf("status line:\n%s", v)
	}
	send(m, pagetest.Key("!"))
	v = m.View()
	for _, want := range []string{"(end of message)", "connection refused", "GET /api/v1/vault/workspace/recycle_bin", pagetest.Now.Format("15:04:05")} {
		if !strings.Contains(v, want) {
			t.Errorf("errors pane lacks %q:\n%s", want, v)
		}
	}
	send(m, pagetest.Key("esc"))
	if strings.Contains(m.View(), "(end of message)") || len(m.stack) != 1 {
		t.Errorf("esc did not close the pane:\n%s", m.View())
	}
}
