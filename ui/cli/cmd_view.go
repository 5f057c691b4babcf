package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func (r *runner) viewCmd() *cobra.Command {
	c := &cobra.Command{Use: "view [NAME]", Short: "run a saved view headless (the console's V saves one, :NAME opens it); without NAME, list them",
		Long: "A saved view is a name for a listing's command, kept one a line in the configuration directory's views file " +
			"($XDG_CONFIG_HOME/vaultdeck/views): NAME = COMMAND, such as\n\n  purging-this-week = recycle-bin --purging-within 7d\n\n" +
			"The output format and the profile are given when it runs: vaultdeck view purging-this-week --csv.",
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return r.viewNames(), cobra.ShellCompDirectiveNoFileComp
		}}
	c.RunE = r.run(func(ctx context.Context, args []string) int {
		views, path, err := r.savedViews()
		if err != nil {
			return r.fail(err)
		}
		if len(args) == 0 {
			if len(views) == 0 {
				fmt.Fprintf(r.env.Stdout, "no saved views yet in %s; the console's V saves one, or add a line NAME = COMMAND\n", path)
				return ExitOK
			}
			return r.done(writeAligned(r.env.Stdout, len(views)+1, func(i int) []string {
				if i == 0 {
					return []string{"NAME", "COMMAND"}
				}
				return []string{views[i-1].Name, strings.Join(views[i-1].Args, " ")}
			}))
		}
		for _, v := range views {
			if v.Name == args[0] {
				return Main(ctx, append(v.Args, givenGlobals(c)...), r.orig)
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
		return r.usage("there is no saved view %q in %s (%s)", args[0], path, saved)
	})
	return c
}

// givenGlobals are the global flags this invocation was given (--csv,
// --profile …), handed on to the view's command.
func givenGlobals(c *cobra.Command) []string {
	var out []string
	c.Root().PersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Changed {
			out = append(out, "--"+f.Name+"="+f.Value.String())
		}
	})
	return out
}
