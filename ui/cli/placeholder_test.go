package cli

import (
	"regexp"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// placeholder is what a flag's value may be called in help and the man
// pages: a word in capitals (FILE, TEXT, 80%), a list of choices
// (us|eu|au), or a number's type as pflag names it; never "string",
// pflag's name for a value nobody named.
var placeholder = regexp.MustCompile(`^([A-Z][A-Z0-9_-]*(\[,[A-Z]+\])?|[0-9]+%|[a-z0-9]+(\|[a-z0-9-]+)+|start:rate:full|int|int64|uint|float|float64|duration|stringArray|)$`)

// TestFlagPlaceholdersNameAValue: pflag takes a flag usage's first
// `backticked` words as the value's name; seen in `vaultdeck sim --help`
// and its man page, '--audit-burst vaultdeck audit stats', the usage
// quoting a command. Every flag of every command names its value as a
// placeholder does.
func TestFlagPlaceholdersNameAValue(t *testing.T) {
	root := newTree(Env{}).newRoot()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check := func(f *pflag.Flag) {
			if name, _ := pflag.UnquoteUsage(f); !placeholder.MatchString(name) {
				t.Errorf("%s --%s: its value is called %q in help", c.CommandPath(), f.Name, name)
			}
		}
		c.LocalFlags().VisitAll(check)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}
