// Package termquery keeps the process from asking the terminal for its
// background colour at start-up, so headless commands never query and the
// console queries once.
//
// Bubble Tea v1 asks from an init function (tea_init.go calls
// lipgloss.HasDarkBackground on lipgloss's default renderer), so every
// process that links it, headless commands included, writes an OSC 11 query
// to a terminal on stdout and waits up to 5 s for an answer that a slow link
// or a silent terminal never sends; the console's `auto` theme then asked
// again through its own renderer.
//
// Bubble Tea's init cannot be preceded by a package that imports lipgloss
// (lipgloss's dependants sort before github.com/vaultdeck/... in Go's
// package initialisation order), but this package imports only os and so
// initialises long before: it hides TERM behind "dumb", the one value for
// which termenv declines to query, and main calls Release before anything
// else. Nothing in this program reads the terminal type in between (views
// style through the program's own renderer, built after Release).
// TestTerminalQueries (ui/e2e) checks the outcome on a pseudo-terminal.
package termquery

import "os"

// held is TERM as the process received it; set is false when it was unset.
var held struct {
	value string
	set   bool
}

func init() {
	held.value, held.set = os.LookupEnv("TERM")
	_ = os.Setenv("TERM", "dumb")
}

// Release gives TERM back. main calls it first thing.
func Release() {
	if held.set {
		_ = os.Setenv("TERM", held.value)
	} else {
		_ = os.Unsetenv("TERM")
	}
}
