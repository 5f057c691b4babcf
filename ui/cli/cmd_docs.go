package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/vaultdeck/vaultdeck/ui/cli/topics"
)

// `vaultdeck docs [--dir D] [--format markdown|man]`: the reference,
// generated from the command tree itself. Without --dir it prints the
// Markdown reference of every command; with --dir it writes one page per
// command and one per help topic (ui/cli/topics): vaultdeck-audit.1 and
// vaultdeck-audit.7, or vaultdeck_audit.md and vaultdeck_help_audit.md. Not
// cobra/doc: it links a Markdown parser and a YAML library whose package
// initialisation (1 to 2 ms, blackfriday's HTML entity table above all)
// every command paid before its first output, the console's first frame
// included. The man pages are the same sections in roff (manPage).
func (r *tree) docsCmd() *cobra.Command {
	var dir, format string
	c := &cobra.Command{Use: "docs", Short: "print the command reference, or write it and the help topics as Markdown or man pages (--dir)", Args: noArgs}
	c.Flags().StringVar(&dir, "dir", "", "write one page per command into `DIR` (created if missing)")
	format = "markdown"
	c.Flags().Var(enumFlag(&format, []string{"markdown", "man"}), "format", "the reference's format, `markdown|man` (man with --dir)")
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
		if err := writePages(root, dir, format); err != nil {
			return r.fail(err)
		}
		fmt.Fprintf(r.env.Stdout, "wrote the %s reference to %s\n", format, dir)
		return ExitOK
	})
	return c
}

// writePages writes one page per command of root's tree into dir:
// vaultdeck_audit_sync.md (the section `vaultdeck docs` prints for it, with
// the global flags) or vaultdeck-audit-sync.1; and one per help topic,
// vaultdeck_help_audit.md (its Markdown as written) or vaultdeck-audit.7.
func writePages(root *cobra.Command, dir, format string) error {
	for _, t := range topics.All() {
		name, page := "vaultdeck_help_"+t.Name+".md", t.Markdown()
		if format == "man" {
			name, page = "vaultdeck-"+t.Name+".7", t.Man()
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			return err
		}
	}
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		if !c.IsAvailableCommand() && c != root || c.Name() == "help" {
			return nil
		}
		c.InitDefaultHelpFlag()
		name, page := strings.ReplaceAll(c.CommandPath(), " ", "_")+".md", markdownPage(c)
		if format == "man" {
			name, page = strings.ReplaceAll(c.CommandPath(), " ", "-")+".1", manPage(c)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			return err
		}
		for _, s := range c.Commands() {
			if err := walk(s); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root)
}

func markdownPage(c *cobra.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## `%s`\n\n%s.\n\n", c.CommandPath(), strings.TrimSuffix(c.Short, "."))
	if c.Long != "" {
		b.WriteString(c.Long + "\n\n")
	}
	if c.Example != "" { // examples first, as gh's and kubectl's pages
		fmt.Fprintf(&b, "Examples:\n\n```\n%s\n```\n\n", c.Example)
	}
	fmt.Fprintf(&b, "```\n%s\n", c.UseLine())
	if fl := usages(c.LocalNonPersistentFlags()); fl != "" {
		b.WriteString("\n" + fl)
	}
	if fl := usages(c.PersistentFlags()); fl != "" && !c.HasParent() {
		b.WriteString("\nGlobal flags (before or after any command):\n" + fl)
	}
	if fl := usages(c.InheritedFlags()); fl != "" {
		b.WriteString("\nGlobal flags (before or after any command):\n" + fl)
	}
	b.WriteString("```\n")
	var see []string
	if p := c.Parent(); p != nil {
		see = append(see, fmt.Sprintf("[%s](%s.md)", p.CommandPath(), strings.ReplaceAll(p.CommandPath(), " ", "_")))
	}
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() && s.Name() != "help" {
			see = append(see, fmt.Sprintf("[%s](%s.md)", s.CommandPath(), strings.ReplaceAll(s.CommandPath(), " ", "_")))
		}
	}
	for _, t := range topics.For(c.CommandPath()) {
		see = append(see, fmt.Sprintf("[vaultdeck help %s](vaultdeck_help_%s.md)", t, t))
	}
	if len(see) > 0 {
		b.WriteString("\nSee also: " + strings.Join(see, ", ") + "\n")
	}
	return b.String()
}

// manPage is c's page in man(7) roff: name, synopsis, description, its own
// options and the global ones, and the commands around it.
func manPage(c *cobra.Command) string {
	var b strings.Builder
	title := strings.ReplaceAll(c.CommandPath(), " ", "-")
	fmt.Fprintf(&b, ".TH %q 1 \"\" \"vaultdeck\" \"vaultdeck manual\"\n", strings.ToUpper(title))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", roffText(title), roffText(c.Short)) // \- : the dash man(7) expects there
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.B %s\n", roffText(c.UseLine()))
	if c.Long != "" {
		fmt.Fprintf(&b, ".SH DESCRIPTION\n%s\n", roffText(c.Long))
	}
	if c.Example != "" { // as typed: no filling, no adjusting
		fmt.Fprintf(&b, ".SH EXAMPLES\n.nf\n%s\n.fi\n", roffText(c.Example))
	}
	options := func(heading string, fs *pflag.FlagSet) {
		first := true
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" || f.Hidden {
				return
			}
			if first {
				fmt.Fprintf(&b, ".SH %s\n", heading)
				first = false
			}
			name, usage := pflag.UnquoteUsage(f)
			flag := "--" + roffText(f.Name)
			if f.Shorthand != "" {
				flag = "-" + roffText(f.Shorthand) + ", " + flag
			}
			if name != "" {
				flag += " \\fI" + roffText(name) + "\\fR"
			}
			fmt.Fprintf(&b, ".TP\n\\fB%s\\fR\n%s\n", flag, roffText(usage))
		})
	}
	options("OPTIONS", c.LocalNonPersistentFlags())
	if !c.HasParent() {
		options("GLOBAL OPTIONS", c.PersistentFlags())
	}
	options("GLOBAL OPTIONS", c.InheritedFlags())
	var see []string
	if p := c.Parent(); p != nil {
		see = append(see, roffText(strings.ReplaceAll(p.CommandPath(), " ", "-"))+"(1)")
	}
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() && s.Name() != "help" {
			see = append(see, roffText(strings.ReplaceAll(s.CommandPath(), " ", "-"))+"(1)")
		}
	}
	for _, t := range topics.For(c.CommandPath()) {
		see = append(see, roffText("vaultdeck-"+t)+"(7)")
	}
	if len(see) > 0 {
		fmt.Fprintf(&b, ".SH SEE ALSO\n%s\n", strings.Join(see, ", "))
	}
	return b.String()
}

// roffText makes text inert for roff (topics.Roff: the help topics' man
// pages escape the same way).
func roffText(s string) string { return topics.Roff(s) }
