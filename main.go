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
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], cli.Std(os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	stop()
	os.Exit(code)
}
