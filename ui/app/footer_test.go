package app

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

func footer(m *Model) string {
	v := m.View()
	return v[strings.LastIndexByte(v, '\n')+1:]
}

// The footer: the root page offers no "esc back" (esc does nothing there),
// a status keeps its whole text with the keys after it, and help, the
// command line and the errors pane say how to leave them.
func TestFooterFollowsWhatIsOnScreen(t *testing.T) {
	m, _ := newApp(t, false)
	if f := footer(m); !strings.HasSuffix(f, "? help") || strings.Contains(f, "esc back") || !strings.Contains(f, "q quit") {
		t.Errorf("root footer %q", f)
	}
	send(m, page.Open{Route: "recyclebin"})
	if f := footer(m); !strings.Contains(f, "esc back") {
		t.Errorf("second page footer %q", f)
	}
	m.setStatus(page.StatusMsg{Text: "3 file IDs added"})
	if f := footer(m); !strings.HasPrefix(f, "3 file IDs added │ ") || !strings.HasSuffix(f, "? help") {
		t.Errorf("status footer %q", f)
	}
	send(m, pagetest.Key("?"))
	if f := footer(m); !strings.Contains(f, "esc close help") {
		t.Errorf("help footer %q", f)
	}
	send(m, pagetest.Key("esc"))
	send(m, pagetest.Key("!"))
	if f := footer(m); !strings.Contains(f, "esc close") {
		t.Errorf("errors pane footer %q", f)
	}
}
