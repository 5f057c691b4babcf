package cli

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/vaultdeck/vaultdeck/ui/cli/topics"
)

// `vaultdeck help [COMMAND...]` prints the same full help as `COMMAND
// --help`; `vaultdeck help TOPIC` a topic of the manual (ui/cli/topics),
// and a name that is both (audit, matters, serve, access, person) the
// command's help, then the topic. An unknown name is a usage error (exit
// 2), not a shrug.
func (r *tree) helpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND|TOPIC]",
		Short: "show the help of vaultdeck or of a command, or a topic of the manual (listed by vaultdeck help)",
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			c, _, err := root.Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			names := subNames(c)
			if len(args) == 0 {
				for _, t := range topics.Names() {
					if !slices.Contains(names, t) {
						names = append(names, t)
					}
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(h *cobra.Command, args []string) error {
			topic, isTopic := topics.Topic{}, false
			if len(args) == 1 {
				topic, isTopic = topics.Find(args[0])
			}
			c, rest, err := root.Find(args)
			isCommand := err == nil && len(rest) == 0 && (c != root || len(args) == 0)
			if !isCommand && !isTopic {
				return usagef("unknown command or help topic %q (vaultdeck help lists them)", strings.Join(args, " "))
			}
			if isCommand {
				c.InitDefaultHelpFlag()
				if err := c.Help(); err != nil || !isTopic {
					return err
				}
				fmt.Fprintf(h.OutOrStdout(), "\n── the topic %s ──\n\n", topic.Name)
			}
			out := h.OutOrStdout()
			_, err = io.WriteString(out, topic.Render(topicStyle(out, r.env.Getenv)))
			return err
		},
	}
}

// topicStyle: re-wrapped and bold on a terminal, the Markdown as written
// into a pipe, a file or a terminal that says it is dumb.
func topicStyle(w io.Writer, getenv func(string) string) topics.Style {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || getenv == nil || getenv("TERM") == "dumb" {
		return topics.Style{}
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		width = 0
	}
	return topics.Style{Terminal: true, Width: width}
}
