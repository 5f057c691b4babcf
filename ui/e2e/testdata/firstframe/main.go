// Command firstframe is the smallest Bubble Tea program drawing a full
// screen like the console's first frame (alternate screen, one line of
// text): the yardstick BenchmarkFirstFrame measures vaultdeck demo against.
package main

import (
	"flag"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
)

type model struct{}

func (model) Init() tea.Cmd { return nil }

func (m model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.String() == "q" {
		return m, tea.Quit
	}
	return m, nil
}

func (model) View() string { return "FIRST FRAME" }

// vaultdeck runs vaultdeck's command line; set only when built with -tags
// linked (linked.go).
var vaultdeck func(args []string) int

func main() {
	fps := flag.Int("fps", 0, "renderer frame rate (0: Bubble Tea's default, 60)")
	run := flag.Bool("vaultdeck", false, "built with -tags linked: run vaultdeck's command line with the arguments instead")
	flag.Parse()
	if *run && vaultdeck != nil {
		os.Exit(vaultdeck(flag.Args()))
	}
	opts := []tea.ProgramOption{tea.WithAltScreen()}
	if *fps > 0 {
		opts = append(opts, tea.WithFPS(*fps))
	}
	if _, err := tea.NewProgram(model{}, opts...).Run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
