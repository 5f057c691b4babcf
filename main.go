// Command vaultdeck is a terminal console for the vault, recycle bin, file
// processing, audit log and client matters of a legal-work workspace.
//
// main only builds the pieces and hands over: the command table and every
// command live in ui/cli, so they can be tested without a process.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/vaultdeck/vaultdeck/ui/cli"
	"github.com/vaultdeck/vaultdeck/ui/termquery"
)

func main() {
	// Bubble Tea's init has run without asking the terminal anything (see
	// ui/termquery); the terminal type is needed again from here on.
	termquery.Release()
	// SIGHUP (terminal closed, tmux session killed) and SIGTERM end the
	// program like q does, so deferred clean-up (the demo's temporary home)
	// runs.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	// A closed pipe on stdout or stderr is a failed write the printer says
	// (what reached the reader, exit 1), not a silent death by SIGPIPE.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	env := cli.Std(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	cli.RouteLibraryLogs(env)
	code := cli.Main(ctx, os.Args[1:], env)
	stop()
	os.Exit(code)
}
