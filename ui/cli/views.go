package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/console"
)

// Saved views (issue 31): a name for a listing's command, kept in the
// configuration directory (api/account.SaveView), opened in the console
// with :NAME and run headless with `vaultdeck view NAME`. Reading a view's
// words needs the command tree, so it is done here; which listings a view
// may name is api/account's ViewCommands, which the console's routes read
// too.

func viewableList() string {
	var out []string
	for _, v := range account.ViewCommands() {
		out = append(out, strings.Join(v.Command, " "))
	}
	return strings.Join(out, ", ")
}

// viewQuery reads a saved view's words as the command line would, on a
// tree of its own (parsing sets flags), and returns its query: a command
// that lists, flags it has with values they take, the arguments it takes,
// and of the global flags only those naming where its rows come from
// (account.ViewGlobals: the profile and the endpoint, issue 42); the
// output format is given when the view runs, so one view serves every
// format.
func viewQuery(env Env, args []string) (account.ViewQuery, error) {
	probe := newTree(env)
	root := probe.newRootFor(args)
	cmd, rest, err := root.Find(args)
	path := strings.Fields(commandName(cmd))
	if err != nil || cmd == root || !slices.ContainsFunc(account.ViewCommands(), func(v account.ViewCommand) bool { return slices.Equal(v.Command, path) }) {
		return account.ViewQuery{}, fmt.Errorf("%q is not a listing a view can save; a view runs one of: %s", strings.Join(args[:min(len(args), 2)], " "), viewableList())
	}
	name := strings.Join(path, " ")
	if err := cmd.ParseFlags(rest); err != nil {
		return account.ViewQuery{}, fmt.Errorf("%s: %s", name, flagError(err))
	}
	var q account.ViewQuery
	var globals []string
	var rules []account.ViewFlag // --filter and --sort: what the view shows, kept after its own flags
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		switch {
		case !f.Changed:
		case slices.Contains(printer.RuleFlags(), f.Name):
			rules = append(rules, account.ViewFlag{Name: f.Name, Value: f.Value.String()})
		case slices.Contains(account.ViewGlobals(), f.Name):
			q.Globals = append(q.Globals, account.ViewFlag{Name: f.Name, Value: f.Value.String()})
		default:
			globals = append(globals, "--"+f.Name)
		}
	})
	if len(globals) > 0 {
		return q, fmt.Errorf("%s is given when the view runs (vaultdeck view NAME %s), not kept in it", globals[0], globals[0])
	}
	pos := cmd.Flags().Args()
	if err := cmd.ValidateArgs(pos); err != nil {
		return q, fmt.Errorf("%s: %s", name, usageError(err))
	}
	q.Command = append(path, pos...)
	cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if !f.Changed {
			return
		}
		if f.Value.Type() == "bool" {
			if f.Value.String() == "true" { // a switch turned off is no flag at all
				q.Flags = append(q.Flags, account.ViewFlag{Name: f.Name, Switch: true})
			}
			return
		}
		q.Flags = append(q.Flags, account.ViewFlag{Name: f.Name, Value: f.Value.String()})
	})
	q.Flags = append(q.Flags, rules...)
	return q, nil
}

// checkView is viewQuery as api/account's check of a line.
func checkView(env Env) func(args []string) error {
	return func(args []string) error {
		_, err := viewQuery(env, args)
		return err
	}
}

// savedViews reads and checks env's views file; a mistake is one error
// naming the file and the line.
func savedViews(env Env) ([]account.SavedView, string, error) {
	p, err := store.DefaultPaths(env.Getenv)
	if err != nil {
		return nil, "", err
	}
	path := account.ViewsPath(p)
	views, err := account.ReadViews(path, checkView(env))
	return views, path, err
}

// consoleViews are the saved views as the console takes them: read and
// checked now (Update does no IO), and saved as the file checks a line.
func consoleViews(env Env) (console.SavedViews, error) {
	views, path, err := savedViews(env)
	if err != nil {
		return console.SavedViews{}, err
	}
	sv := console.SavedViews{Saved: map[string]account.ViewQuery{}, Where: path,
		Save: func(name, words string) error { return account.SaveView(path, name, words, checkView(env)) }}
	for _, v := range views {
		q, err := viewQuery(env, v.Args)
		if err != nil { // checked by savedViews: only a changed command tree gets here
			return console.SavedViews{}, err
		}
		sv.Saved[v.Name] = q
	}
	return sv, nil
}

// runSaved runs a saved view's command line on the streams Main was given
// (the view command's own printer has written nothing).
func (r *tree) runSaved(ctx context.Context, args []string) int { return Main(ctx, args, r.orig) }

// views reads the saved views of the streams Main was given.
func (r *tree) views() ([]account.SavedView, string, error) { return savedViews(r.orig) }
