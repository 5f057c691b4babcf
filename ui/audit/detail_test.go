package audit

import (
	"encoding/json"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestDetailWrapsAt40Columns: at 40x12 a long value (user agent, data) is
// wrapped whole instead of ending in "…", and the pane stays in the body.
func TestDetailWrapsAt40Columns(t *testing.T) {
	log := newFakeLog(1, oneType)
	ua := "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0"
	log.entries[0].UserAgent = ua
	log.entries[0].Data = json.RawMessage(`{"project_name":"Northwind Data Room Processing Backlog"}`)
	r := newRig(t, log, "")
	r.m.SetSize(40, 9)
	r.run(r.m.Init())
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	seen := ""
	for range 20 {
		v := r.m.View()
		if n := strings.Count(v, "\n") + 1; n > 9 {
			t.Fatalf("detail is %d lines in a body of 9:\n%s", n, v)
		}
		_, pane, _ := strings.Cut(v, "\n") // the header line is the view's own
		seen += pane
		r.key(runes("j"))
	}
	if strings.Contains(seen, "…") {
		t.Errorf("a value was cut:\n%s", seen)
	}
	for _, w := range []string{"Chrome/126.0", "Backlog"} {
		if !strings.Contains(seen, w) {
			t.Errorf("%q never shown:\n%s", w, seen)
		}
	}
}
