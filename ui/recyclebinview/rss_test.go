package recyclebinview

import (
	"context"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

const rssEnv = "VAULTDECK_BIN_RSS_CHILD"

// minimalProgram is the smallest Bubble Tea program that holds the bin:
// the decoded entries; it quits at once.
type minimalProgram struct {
	items []api.RecycleBinEntry
}

func (m minimalProgram) Init() tea.Cmd                       { return tea.Quit }
func (m minimalProgram) Update(tea.Msg) (tea.Model, tea.Cmd) { return m, nil }
func (m minimalProgram) View() string                        { return "" }

// TestBinRSSChild is one side of BenchmarkBinPeakRSS100k, run in its own
// process (skipped otherwise): it loads the bin from the simulator at
// BIN_RSS_BASE, as the console does, and holds it either in the
// recycle-bin view or in a minimal Bubble Tea program.
func TestBinRSSChild(t *testing.T) {
	mode := os.Getenv(rssEnv)
	if mode == "" {
		t.Skip("run by BenchmarkBinPeakRSS100k")
	}
	c, err := api.New(api.Config{BaseURL: os.Getenv("BIN_RSS_BASE"), Token: api.StaticToken(os.Getenv("BIN_RSS_TOKEN")), Limits: api.Limits{Vault: -1}})
	if err != nil {
		t.Fatal(err)
	}
	switch mode {
	case "minimal":
		items, _, err := c.RecycleBin(api.RecycleBinQuery{}).Collect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		p := tea.NewProgram(minimalProgram{items: items}, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
		if _, err := p.Run(); err != nil {
			t.Fatal(err)
		}
	case "view":
		p := New(pagetest.Env(t, c, false), "")
		p.SetSize(200, 60)
		p, _ = pagetest.Drive(p, p.Init())
		if p.(*Model).Table.Len() == 0 {
			t.Fatal("the bin did not load")
		}
		_ = p.View()
	}
}

// BenchmarkBinPeakRSS100k measures, in one run, the peak RSS of two
// processes that load a 100,000-entry bin from the same simulator (run in
// this process, so its memory is not counted): one holding it in the
// recycle-bin view, one in a minimal Bubble Tea program (issue 11's
// comparison; goal 1.2x).
func BenchmarkBinPeakRSS100k(b *testing.B) {
	e := simtest.Start(b, simtest.Options{Sim: sim.Options{Seed: sim.DefaultSeed, NoRateLimit: true, RecycleBin: 100_000}})
	s := e.Sim
	peak := func(mode string) float64 {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestBinRSSChild$", "-test.count", "1")
		cmd.Env = append(os.Environ(), rssEnv+"="+mode, "BIN_RSS_BASE="+e.URL, "BIN_RSS_TOKEN="+s.Token("admin"))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", mode, err, out)
		}
		return float64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) / 1024 // KiB on Linux
	}
	var minimal, view float64
	for b.Loop() {
		minimal, view = peak("minimal"), peak("view")
	}
	b.ReportMetric(minimal, "minimal-peak-MiB")
	b.ReportMetric(view, "view-peak-MiB")
	b.ReportMetric(view/minimal, "view/minimal")
}
