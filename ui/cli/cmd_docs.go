package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// `vaultdeck docs [--dir D] [--format markdown|man]`: the reference,
// generated from the command tree itself. Without --dir it prints the
// Markdown reference the README carries between its markers (a test keeps
// them equal); with --dir it writes one page per command (cobra/doc).
func (r *runner) docsCmd() *cobra.Command {
	var dir, format string
	c := &cobra.Command{Use: "docs", Short: "print the command reference, or write it as Markdown or man pages (--dir)", Args: noArgs}
	c.Flags().StringVar(&dir, "dir", "", "write one page per command into `DIR` (created if missing)")
	format = "markdown"
	c.Flags().Var(enumFlag(&format, []string{"markdown", "man"}), "format", "markdown or man (with --dir)")
	_ = c.RegisterFlagCompletionFunc("format", fixed([]string{"markdown", "man"}))
	c.RunE = r.run(func(context.Context, []string) int {
		root := c.Root()
		if dir == "" {
			if format != "markdown" {
				return r.usage("--format man writes pages: give --dir")
			}
			fmt.Fprint(r.env.Stdout, Reference(root))
			return ExitOK
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return r.fail(err)
		}
		var err error
		if format == "man" {
			err = doc.GenManTree(root, &doc.GenManHeader{Title: "VAULTDECK", Section: "1"}, dir)
		} else {
			err = doc.GenMarkdownTree(root, dir)
		}
		if err != nil {
			return r.fail(err)
		}
		fmt.Fprintf(r.env.Stdout, "wrote the %s reference to %s\n", format, dir)
		return ExitOK
	})
	return c
}
