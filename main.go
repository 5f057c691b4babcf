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
	ctx, stop, signals := notify()
	env := cli.Std(os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	env.Signals = signals
	cli.RouteLibraryLogs(env)
	code := cli.Main(ctx, os.Args[1:], env)
	stop()
	os.Exit(code)
}

// notify registers the signals the program handles and returns the context
// they end, with the signal as its cause (hangup.ByHangup reads it), and
// what waits for the registration. Registering takes a round trip to the
// runtime's signal thread per signal, the first one starting that thread
// (0.1 to 0.3 ms, on the console's way to its first frame): made here in
// the background, it overlaps the reading of the command line, and cli.Main
// waits for it before the command runs or writes anything.
func notify() (ctx context.Context, stop func(), wait func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan struct{})
	go func() {
		// SIGHUP (terminal closed, tmux session killed) and SIGTERM end the
		// program like q does, so deferred clean-up (the demo's temporary
		// home) runs.
		sig, stopSig := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		// A closed pipe on stdout or stderr is a failed write the printer
		// says (what reached the reader, exit 1), not a silent death by
		// SIGPIPE.
		signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
		close(done)
		select {
		case <-sig.Done():
			cancel(context.Cause(sig))
		case <-ctx.Done():
			stopSig()
		}
	}()
	return ctx, func() { cancel(nil) }, func() { <-done }
}
