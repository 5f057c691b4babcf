package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// describe is everything of c a user or cobra sees: its texts, its flags
// (own and inherited, with defaults and completions' annotations), its
// subcommands and its whole usage text.
func describe(c *cobra.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "path %q use %q short %q long %q example %q aliases %q hidden %v args %v\n",
		c.CommandPath(), c.Use, c.Short, c.Long, c.Example, c.Aliases, c.Hidden, c.Args != nil)
	flag := func(kind string) func(f *pflag.Flag) {
		return func(f *pflag.Flag) {
			fmt.Fprintf(&b, "%s --%s -%s %q type %s default %q noopt %q hidden %v ann %v\n",
				kind, f.Name, f.Shorthand, f.Usage, f.Value.Type(), f.DefValue, f.NoOptDefVal, f.Hidden, f.Annotations)
		}
	}
	c.LocalFlags().VisitAll(flag("local"))
	c.InheritedFlags().VisitAll(flag("inherited"))
	for _, s := range c.Commands() {
		fmt.Fprintf(&b, "sub %s\n%s", s.Name(), describe(s))
	}
	b.WriteString(c.UsageString())
	return b.String()
}

// TestLazyTreeMatchesTheWholeOne: Main builds only the command that runs
// (issue 32: the whole tree cost every start ~900 allocations). Every
// command, built alone from its own words, is the same as in the whole
// tree, down to its usage text and its subcommands; the table of
// subcommands names each command as it names itself.
func TestLazyTreeMatchesTheWholeOne(t *testing.T) {
	for _, s := range newTree(Env{}).subcommands() {
		if got := s.build().Name(); got != s.name {
			t.Errorf("subcommands lists %q for the command named %q", s.name, got)
		}
	}
	whole := newTree(Env{}).newRoot()
	var names []string
	for _, c := range whole.Commands() {
		names = append(names, c.Name())
		if c.Name() == "help" {
			continue
		}
		path := []string{c.Name()}
		lazy := newTree(Env{}).newRootFor(path)
		if wholeTree[c.Name()] {
			if len(lazy.Commands()) != len(whole.Commands()) {
				t.Errorf("%s: built %d commands, want the whole tree's %d", c.Name(), len(lazy.Commands()), len(whole.Commands()))
			}
			continue
		}
		var kids []string
		for _, k := range lazy.Commands() {
			kids = append(kids, k.Name())
		}
		slices.Sort(kids)
		want := []string{c.Name(), "help"}
		slices.Sort(want)
		if !slices.Equal(kids, want) {
			t.Errorf("%s: built %v, want only it and help", c.Name(), kids)
		}
		got, _, err := lazy.Find(path)
		if err != nil || got.Name() != c.Name() {
			t.Fatalf("%s: found %q, %v", c.Name(), got.Name(), err)
		}
		if a, b := describe(got), describe(c); a != b {
			t.Errorf("%s built alone differs from the whole tree's:\n%s\n--- whole:\n%s", c.Name(), a, b)
		}
	}
	// The root alone (the console) keeps its own flags and texts.
	bare := newTree(Env{}).newRootFor(nil)
	if len(bare.Commands()) != 0 {
		t.Errorf("the console built %d commands", len(bare.Commands()))
	}
	for _, kind := range []func(*cobra.Command) *pflag.FlagSet{(*cobra.Command).LocalFlags, (*cobra.Command).PersistentFlags} {
		var a, b []string
		kind(bare).VisitAll(func(f *pflag.Flag) { a = append(a, f.Name+" "+f.Usage+" "+f.DefValue) })
		kind(whole).VisitAll(func(f *pflag.Flag) { b = append(b, f.Name+" "+f.Usage+" "+f.DefValue) })
		if !slices.Equal(a, b) {
			t.Errorf("the console's flags differ from the whole root's:\n%q\n%q", a, b)
		}
	}
	if !slices.Contains(names, "demo") || len(names) < 20 {
		t.Fatalf("the whole tree lists %v", names)
	}
}

// TestLazyTreeReadsArgsAsCobraDoes: the command is found past global flags
// and their values; help, an unknown command or a word cobra would read
// otherwise builds the whole tree (so suggestions and help list every
// command).
func TestLazyTreeReadsArgsAsCobraDoes(t *testing.T) {
	cases := []struct {
		args []string
		want string // the only command built; "" the console alone; "*" the whole tree
	}{
		{[]string{"demo"}, "demo"},
		{[]string{"--profile", "demo", "projects", "--json"}, "projects"}, // a value that names a command
		{[]string{"--json", "audit", "stats"}, "audit"},
		{[]string{"--base-url=http://127.0.0.1:1", "whoami"}, "whoami"},
		{[]string{"--max-rate", "50%", "recycle-bin"}, "recycle-bin"},
		{[]string{"--profile", "demo"}, ""}, // cobra: no command word left after a flag's value
		{[]string{"--read-only", "--theme", "mono"}, ""},
		{nil, ""},
		{[]string{"--bogus", "demo"}, ""}, // an unknown flag takes the word as its value
		{[]string{"demo", "--help"}, "*"},
		{[]string{"-h"}, "*"},
		{[]string{"help", "demo"}, "*"},
		{[]string{"completion", "bash"}, "*"},
		{[]string{"docs"}, "*"},
		{[]string{"__complete", "de"}, "*"},
		{[]string{"projekts"}, "*"},
		{[]string{"--", "demo"}, ""},
		// The root built for a command word lacks the console's own flags;
		// the command's flags after the word read as before.
		{[]string{"demo", "--read-only", "--theme", "mono"}, "demo"},
		{[]string{"demo", "--theme", "mono", "--seed", "7"}, "demo"},
		{[]string{"demo", "--version"}, "demo"}, // the root's flag, not demo's: demo refuses it
	}
	wholeN := len(newTree(Env{}).newRoot().Commands())
	for _, c := range cases {
		root := newTree(Env{}).newRootFor(c.args)
		var got string
		switch n := len(root.Commands()); {
		case n == wholeN:
			got = "*"
		case n == 0:
			got = ""
		case n == 2:
			got = root.Commands()[0].Name()
			if got == "help" {
				got = root.Commands()[1].Name()
			}
		default:
			got = fmt.Sprintf("%d commands", n)
		}
		if got != c.want {
			t.Errorf("%q built %q, want %q", c.args, got, c.want)
		}
	}
}

// TestCommandWordRootHasNoConsoleFlags: `vaultdeck demo` (any command
// word first) builds the root without the console's own flags, which no
// argument there can set (issue 32: a third of the command line's set-up
// on the demo's way to its first frame); the console keeps them.
func TestCommandWordRootHasNoConsoleFlags(t *testing.T) {
	if f := newTree(Env{}).newRootFor([]string{"demo"}).LocalNonPersistentFlags().Lookup("theme"); f != nil {
		t.Errorf("the root built for demo carries the console's --theme")
	}
	if f := newTree(Env{}).newRootFor(nil).LocalNonPersistentFlags().Lookup("theme"); f == nil {
		t.Errorf("the console's root lacks its --theme")
	}
}
