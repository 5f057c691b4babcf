package console_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/console"
)

// TestExcelSettingIsTheExcelFlag (issue 42): with the profile's excel
// setting on (console.Options.Excel, from account.Resolved.Excel), the
// console's e writes the file `--excel` prints for the view's command,
// byte for byte (a BOM, CRLF); off, the file `--csv` prints.
func TestExcelSettingIsTheExcelFlag(t *testing.T) {
	h := newEquiv(t)
	t.Chdir(t.TempDir()) // e writes to the working directory
	for _, excel := range []bool{true, false} {
		m, err := console.NewModel(context.Background(), console.Options{Backend: h.sim.Client, Start: "bin", Theme: "mono", Excel: excel,
			Conn: &account.Conn{Profile: "sim", DataProfile: "sim", Where: "local", Workspace: "W"}, Now: h.env.Now}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 30))
		waitOut(t, tm, "entries")
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("e")})
		waitOut(t, tm, "wrote ")
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
		files, _ := filepath.Glob("vaultdeck-recycle-bin-*.csv")
		if len(files) != 1 {
			t.Fatalf("files %v", files)
		}
		got, _ := os.ReadFile(files[0])
		os.Remove(files[0])
		format := map[bool]string{true: "--excel", false: "--csv"}[excel]
		if want := h.cli("recycle-bin", format); string(got) != want {
			t.Errorf("excel %v: e wrote %q…, recycle-bin %s prints %q…", excel, head(string(got)), format, head(want))
		}
		if strings.HasPrefix(string(got), "\ufeff") != excel {
			t.Errorf("excel %v: the file starts %q", excel, head(string(got)))
		}
	}
}

func waitOut(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

func head(s string) string { return s[:min(len(s), 60)] }
