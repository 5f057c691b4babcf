package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Issue 29.9: no command had an EXAMPLES section (`help audit` included),
// where gh and kubectl lead with them. The walk fails on any command of
// the tree without one, so a command added later needs its examples; and
// every example must parse: its command exists and its flags are its own
// (an example that fails as typed is worse than none).
func TestEveryCommandHasAnExample(t *testing.T) {
	r := newTree(Env{})
	root := r.newRoot()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Example == "" {
			t.Errorf("%s has no example", c.CommandPath())
		}
		for _, line := range strings.Split(c.Example, "\n") {
			line, _, _ = strings.Cut(line, "#") // a comment
			for _, part := range strings.FieldsFunc(line, func(r rune) bool { return r == '|' || r == '&' || r == '>' }) {
				args := strings.Fields(part)
				for i, a := range args {
					args[i] = strings.Trim(a, `'"`)
				}
				if len(args) == 0 || args[0] != "vaultdeck" {
					continue // the shell around it (jq, printf, cut)
				}
				sub, rest, err := root.Find(args[1:])
				if err != nil {
					t.Errorf("%s: example %q: %v", c.CommandPath(), line, err)
					continue
				}
				if err := sub.ParseFlags(rest); err != nil {
					t.Errorf("%s: example %q: %v", c.CommandPath(), line, err)
				}
			}
		}
		for _, s := range c.Commands() {
			if s.IsAvailableCommand() || s.Name() == "help" {
				walk(s)
			}
		}
	}
	walk(root)
	audit, _, err := root.Find([]string{"audit"})
	if err != nil {
		t.Fatal(err)
	}
	help := audit.UsageString() // what help prints after the description
	if ex, usage := strings.Index(help, "Examples:"), strings.Index(help, "Usage:"); ex < 0 || ex > usage {
		t.Errorf("help audit does not lead with its examples:\n%s", help)
	}
}
