package app_test

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// docPage draws a record in part and offers it whole (page.Documenter),
// as the audit detail does for an entry too large to draw.
type docPage struct{ body []byte }

func (p *docPage) Init() tea.Cmd                       { return nil }
func (p *docPage) Update(tea.Msg) (page.Page, tea.Cmd) { return p, nil }
func (p *docPage) View() string                        { return "a record drawn in part" }
func (p *docPage) SetSize(int, int)                    {}
func (p *docPage) Title() string                       { return "doc" }
func (p *docPage) Help() []key.Binding                 { return nil }
func (p *docPage) SelectedID() string                  { return "the-id" }
func (p *docPage) Document() (page.Document, bool) {
	return page.Document{What: "entry e1", Stem: "audit-entry", Ext: "json", Body: p.body}, true
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// TestDocumentIsCopiedAndSavedWhole: on a page showing a record in part, y
// sends the whole record (OSC 52), not the ID, and e writes it to a file
// rather than a CSV of a table.
func TestDocumentIsCopiedAndSavedWhole(t *testing.T) {
	body := []byte(`{"id":"e1","data":` + strings.Repeat(`[`, 3000) + strings.Repeat(`]`, 3000) + "}\n")
	dir := t.TempDir()
	out := &lockedBuffer{}
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	env.Output = out
	m := app.New(env.WithConn(&account.Conn{Profile: "p", Where: "local", Workspace: "W"}), app.Config{Start: "doc", ExportDir: dir,
		Getenv: func(string) string { return "" },
		Routes: []app.Route{{Name: "doc", New: func(page.Env, string) page.Page { return &docPage{body: body} }}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 20))
	waitFor(t, tm, "drawn in part")
	tm.Send(runes("y"))
	waitFor(t, tm, "sent entry e1")
	if want := base64.StdEncoding.EncodeToString(body); !strings.Contains(out.String(), want) {
		t.Errorf("y did not send the whole record: %d bytes written", len(out.String()))
	}
	tm.Send(runes("e"))
	waitFor(t, tm, "saved entry e1")
	tm.Send(runes("q"))
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	files, _ := filepath.Glob(filepath.Join(dir, "vaultdeck-audit-entry-*.json"))
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	if got, _ := os.ReadFile(files[0]); !bytes.Equal(got, body) {
		t.Errorf("saved %d bytes, want the record's %d", len(got), len(body))
	}
}
