package serve

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"
)

// Run is `vaultdeck serve [flags]` with args still to parse, for tests:
// the command line (ui/cli) parses serve's flags with cobra and calls
// Start. It returns the exit status.
func Run(ctx context.Context, args []string, e Env) int {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	var f Flags
	f.Register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "vaultdeck serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	return Start(ctx, f, fs.Changed, e)
}
