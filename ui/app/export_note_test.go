package app_test

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// notedPage exports one row and notes what its file leaves out.
type notedPage struct{}

func (notedPage) Init() tea.Cmd                         { return nil }
func (p notedPage) Update(tea.Msg) (page.Page, tea.Cmd) { return p, nil }
func (notedPage) View() string                          { return "one row" }
func (notedPage) SetSize(int, int)                      {}
func (notedPage) Title() string                         { return "noted" }
func (notedPage) Help() []key.Binding                   { return nil }
func (notedPage) ExportTable() widgets.TableExport {
	cols := []widgets.Column{{Title: "a"}}
	return widgets.ExportOf(cols, widgets.RowsOf([]widgets.Row{{ID: "1", Cells: []string{"x"}}}), []int{0}).Noting("the first 1 of 9")
}

// An export that holds less than its records (a receipt's view holds its
// first 100,000 outcomes) says so beside where the file went: "wrote 1
// row" alone read as the whole of it.
func TestExportSaysWhatItLeavesOut(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	m := app.New(env.WithConn(&account.Conn{Profile: "p", Where: "local", Workspace: "W"}), app.Config{Start: "noted", ExportDir: t.TempDir(),
		Routes: []app.Route{{Name: "noted", New: func(page.Env, string) page.Page { return notedPage{} }}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 30))
	waitFor(t, tm, "one row")
	tm.Send(runes("e"))
	waitFor(t, tm, "wrote 1 row")
	tm.Send(runes("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	if status := strings.Join(strings.Fields(fm.View()), " "); !strings.Contains(status, "; the first 1 of 9") {
		t.Errorf("the status does not say what the file leaves out: %q", status)
	}
}
