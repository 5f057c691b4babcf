package accountcmd

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// ConfigOptions are what `config get|set|unset` was asked and what it
// works with.
type ConfigOptions struct {
	IO      *printer.Printer
	Store   func() (*store.Store, error)
	Getenv  func(string) string // where the configuration file is
	Profile string              // --profile; "": the default one

	Verb string   // get, set or unset
	Args []string // [KEY [VALUE]]
}

// NewCmdConfig is `vaultdeck config get [KEY] | set KEY VALUE | unset
// KEY`: per-profile defaults, checked and kept by api/account.
func NewCmdConfig(f *factory.Factory) *cobra.Command {
	o := &ConfigOptions{IO: f.IO, Store: f.Store, Getenv: f.Getenv}
	run := func(verb string) func(*cobra.Command, []string) error {
		return cmdutil.Run(f, func(_ context.Context, args []string) int {
			o.Verb, o.Args, o.Profile = verb, args, f.Flags.Profile
			return RunConfig(o)
		})
	}
	c := &cobra.Command{
		Use:   "config",
		Short: "per-profile defaults: " + strings.Join(account.Keys(), ", "),
		Long: `The profile is --profile, else the default one. A flag given on the command line always wins over these,
and a value the configuration file (config.yaml, vaultdeck help profiles) sets wins over what config set
stored: config set refuses it, naming the file's line.`,
		Args: cmdutil.NoArgs,
		RunE: cmdutil.NeedSub,
	}
	keys := func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return account.Keys(), cobra.ShellCompDirectiveNoFileComp
	}
	get := &cobra.Command{Use: "get [KEY]", Short: "print one setting, or all of them", Args: cobra.MaximumNArgs(1), ValidArgsFunction: keys, RunE: run("get")}
	set := &cobra.Command{Use: "set KEY VALUE", Short: "store a setting (checked first)", Args: keyValueThenFlags,
		Long: "The word after KEY is the value, so a value starting with - (a negative duration) is checked as a value; flags may come before KEY or after VALUE.",
		RunE: func(c *cobra.Command, args []string) error { return run("set")(c, args[:2]) }}
	// A value such as -1s is a value to check, not a flag: flags end at
	// the first word, and those after VALUE are parsed by keyValueThenFlags.
	set.Flags().SetInterspersed(false)
	set.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		switch {
		case len(args) == 0:
			return account.Keys(), cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == account.KeyTheme:
			return themes.Names(), cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && args[0] == account.KeyReadOnly:
			return []string{"true", "false"}, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	unset := &cobra.Command{Use: "unset KEY", Short: "go back to the default", Args: cmdutil.ExactArgs(1, "give a KEY"), ValidArgsFunction: keys, RunE: run("unset")}
	c.AddCommand(get, set, unset)
	return c
}

// keyValueThenFlags checks `config set`'s words: KEY and VALUE, then only
// flags (`config set excel true --profile b`, as gh's config set takes
// --host after the value), which it parses here because the command's
// flags stop at KEY.
func keyValueThenFlags(c *cobra.Command, args []string) error {
	if len(args) < 2 {
		return cmdutil.Usagef("give a KEY and a VALUE (%s)", c.UseLine())
	}
	if len(args) == 2 {
		return nil
	}
	if err := c.Flags().Parse(args[2:]); err != nil {
		return cmdutil.Usagef("%v (%s)", err, c.UseLine())
	}
	if help, _ := c.Flags().GetBool("help"); help {
		// --help after the value asks for help, as before it: nothing is set.
		if err := c.Help(); err != nil {
			return err
		}
		return &cmdutil.Exit{Code: printer.ExitOK}
	}
	if rest := c.Flags().Args(); len(rest) > 0 {
		return cmdutil.Usagef("give a KEY and one VALUE, then only flags: %q is a third word (%s)", rest[0], c.UseLine())
	}
	return nil
}

// RunConfig runs `config get|set|unset` with its words checked by cobra;
// the settings, their checks and defaults are api/account's.
func RunConfig(o *ConfigOptions) int {
	p, rest := o.IO, o.Args
	value := ""
	if len(rest) > 0 && !slices.Contains(account.Keys(), rest[0]) {
		_, err := account.Normalize(rest[0], "", themes.Names())
		return p.UsageError(cmdutil.Usagef("%v", err))
	}
	if o.Verb == "set" {
		v, err := account.Normalize(rest[0], rest[1], themes.Names())
		if err != nil {
			return p.UsageError(cmdutil.Usagef("%v", err))
		}
		value = v
	}
	st, err := o.Store()
	if err != nil {
		return p.Fail(err)
	}
	defer st.Close()
	acct := account.Env{Getenv: o.Getenv}
	prof, cfg, err := account.ConfigProfile(acct, st, o.Profile)
	if err != nil {
		return p.Fail(err)
	}
	switch o.Verb {
	case "set", "unset":
		if at, owned := cfg.Owns(prof.Name, rest[0]); owned {
			return p.Fail(fmt.Errorf("%s of profile %q is set by the configuration file at %s, which owns it: change it there (a value config %s stored would never be used)", rest[0], prof.Name, at, o.Verb))
		}
		if _, err := st.Profile(prof.Name); err != nil {
			if fp := cfg.Profile(prof.Name); fp != nil {
				return p.Fail(fmt.Errorf("profile %q is declared only in the configuration file (%s): set %s there", prof.Name, cfg.At(fp.Line), rest[0]))
			}
			return p.Fail(err)
		}
		if err := account.SetSetting(st, prof.Name, rest[0], value); err != nil {
			return p.Fail(err)
		}
		return printer.ExitOK
	}
	settings, from, err := account.EffectiveSettings(st, cfg, prof)
	if err != nil {
		return p.Fail(err)
	}
	if len(rest) == 1 { // one setting: its value as text, whatever the format
		return p.Done(p.Show(printer.Value{Text: func(w io.Writer) error {
			_, err := fmt.Fprintln(w, cmp.Or(settings[rest[0]], account.Default(rest[0])))
			return err
		}}))
	}
	return p.Done(p.Show(printer.Value{JSON: settings, Text: func(w io.Writer) error {
		for _, k := range account.Keys() {
			v, set := settings[k]
			at, filed := from[k]
			if !set || (k == account.KeyReadOnly && !prof.ReadOnly && !filed) {
				v = account.Default(k) + " (default)"
			} else if filed {
				v += " (" + at + ")"
			}
			if _, err := fmt.Fprintf(w, "%-12s %s\n", k, v); err != nil {
				return err
			}
		}
		return nil
	}}))
}
