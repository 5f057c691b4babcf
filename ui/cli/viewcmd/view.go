// Package viewcmd is `vaultdeck view [NAME]`: a saved view (a name for a
// listing's command, api/account's views file) run headless, or the list
// of them. Reading a view's words needs the whole command tree, so the
// root hands the saved views and the way to run a command line in.
package viewcmd

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// Options are what `view` works with.
type Options struct {
	IO *printer.Printer
	// Saved reads and checks the views file: its views and its path.
	Saved func() ([]account.SavedView, string, error)
	// Run runs a command line (a saved view's words and the global flags
	// given) as Main would, on the process's own streams.
	Run  func(ctx context.Context, args []string) int
	Args []string // [NAME]
	// Globals are the global flags this invocation was given (--csv,
	// --profile …), handed on to the view's command.
	Globals []string
}

// NewCmdView is the command over the root's saved views and its way to
// run a command line.
func NewCmdView(f *factory.Factory, saved func() ([]account.SavedView, string, error), run func(ctx context.Context, args []string) int) *cobra.Command {
	o := &Options{IO: f.IO, Saved: saved, Run: run}
	c := &cobra.Command{Use: "view [NAME]", Short: "run a saved view headless (the console's V saves one, :NAME opens it); without NAME, list them",
		Long: "A saved view is a name for a listing's command, kept one a line in the configuration directory's views file " +
			"($XDG_CONFIG_HOME/vaultdeck/views): NAME = COMMAND, such as\n\n  purging-this-week = recycle-bin --purging-within 7d\n\n" +
			"The output format and the profile are given when it runs: vaultdeck view purging-this-week --csv.",
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return Names(saved), cobra.ShellCompDirectiveNoFileComp
		}}
	c.RunE = cmdutil.Run(f, func(ctx context.Context, args []string) int {
		o.Args, o.Globals = args, givenGlobals(c)
		return Run(ctx, o)
	})
	return c
}

// Run lists the saved views, or runs the one o names.
func Run(ctx context.Context, o *Options) int {
	p := o.IO
	views, path, err := o.Saved()
	if err != nil {
		return p.Fail(err)
	}
	if len(o.Args) == 0 {
		if len(views) == 0 {
			return p.Done(p.Show(printer.Value{Text: func(w io.Writer) error {
				_, err := io.WriteString(w, "no saved views yet in "+path+"; the console's V saves one, or add a line NAME = COMMAND\n")
				return err
			}}))
		}
		return p.Done(printer.Aligned(p.Out(), func(row func([]string)) error {
			row([]string{"NAME", "COMMAND"})
			for _, v := range views {
				row([]string{v.Name, strings.Join(v.Args, " ")})
			}
			return nil
		}))
	}
	for _, v := range views {
		if v.Name == o.Args[0] {
			return o.Run(ctx, append(v.Args, o.Globals...))
		}
	}
	names := make([]string, len(views))
	for i, v := range views {
		names[i] = v.Name
	}
	saved := "none saved yet"
	if len(names) > 0 {
		saved = "saved: " + strings.Join(names, ", ")
	}
	return p.Usage("there is no saved view %q in %s (%s)", o.Args[0], path, saved)
}

// Names are the saved views' names (completion: none when the file cannot
// be read).
func Names(saved func() ([]account.SavedView, string, error)) []string {
	views, _, err := saved()
	if err != nil {
		return nil
	}
	out := make([]string, len(views))
	for i, v := range views {
		out[i] = v.Name
	}
	return out
}

// givenGlobals are the global flags this invocation was given.
func givenGlobals(c *cobra.Command) []string {
	var out []string
	c.Root().PersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Changed {
			out = append(out, "--"+f.Name+"="+f.Value.String())
		}
	})
	return out
}
