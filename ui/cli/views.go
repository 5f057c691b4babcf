package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/app"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Saved views (issue 31): a name for a listing's command, kept in the
// configuration directory (api/account.SaveView), opened in the console
// with :NAME and run headless with `vaultdeck view NAME`.

// viewable are the commands a saved view may name: the listings that a
// console view shows.
var viewable = [][]string{
	{"recycle-bin"}, {"projects"}, {"users"}, {"files"}, {"status"}, {"audit"}, {"audit", "stats"},
	{"access", "people"}, {"access", "user"}, {"access", "project"}, {"access", "diff"}, {"matters", "receipts"}, {"matters", "receipt"},
}

func viewableList() string {
	out := make([]string, len(viewable))
	for i, v := range viewable {
		out[i] = strings.Join(v, " ")
	}
	return strings.Join(out, ", ")
}

// viewQuery reads a saved view's words as the command line would, on a
// tree of its own (parsing sets flags), and returns its query: a command
// that lists, flags it has with values they take, the arguments it takes,
// and no global flag (the output format and the profile are given when
// the view runs, so one view serves every format).
func (r *runner) viewQuery(args []string) (page.Query, error) {
	probe := newRunner(r.orig)
	root := probe.newRootFor(args)
	cmd, rest, err := root.Find(args)
	path := strings.Fields(commandName(cmd))
	if err != nil || cmd == root || !slices.ContainsFunc(viewable, func(v []string) bool { return slices.Equal(v, path) }) {
		return page.Query{}, fmt.Errorf("%q is not a listing a view can save; a view runs one of: %s", strings.Join(args[:min(len(args), 2)], " "), viewableList())
	}
	name := strings.Join(path, " ")
	if err := cmd.ParseFlags(rest); err != nil {
		return page.Query{}, fmt.Errorf("%s: %s", name, flagError(err))
	}
	var q page.Query
	var globals []string
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if f.Changed {
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
			q.Switch(f.Name, f.Value.String() == "true")
			return
		}
		q.Flags = append(q.Flags, page.Flag{Name: f.Name, Value: f.Value.String()})
	})
	return q, nil
}

// checkView is viewQuery as api/account's check of a line.
func (r *runner) checkView(args []string) error {
	_, err := r.viewQuery(args)
	return err
}

// viewsPath is the saved views' file of this environment.
func (r *runner) viewsPath() (string, error) {
	p, err := store.DefaultPaths(r.env.Getenv)
	if err != nil {
		return "", err
	}
	return account.ViewsPath(p), nil
}

// savedViews reads and checks the file; a mistake is one error naming the
// file and the line.
func (r *runner) savedViews() ([]account.SavedView, string, error) {
	path, err := r.viewsPath()
	if err != nil {
		return nil, "", err
	}
	views, err := account.ReadViews(path, r.checkView)
	return views, path, err
}

// viewNames completes `vaultdeck view NAME`.
func (r *runner) viewNames() []string {
	views, _, err := r.savedViews()
	if err != nil {
		return nil
	}
	out := make([]string, len(views))
	for i, v := range views {
		out[i] = v.Name
	}
	return out
}

// saveView is the console's V: the query kept under name, checked as a
// line of the file is.
func (r *runner) saveView(path string) func(name string, q page.Query) error {
	return func(name string, q page.Query) error {
		return account.SaveView(path, name, q.Quoted(), r.checkView)
	}
}

// consoleViews are the saved views as the console takes them: read and
// checked now (Update does no IO), and saved through saveView.
func (r *runner) consoleViews() (app.SavedViews, error) {
	views, path, err := r.savedViews()
	if err != nil {
		return app.SavedViews{}, err
	}
	sv := app.SavedViews{Saved: map[string]page.Query{}, Save: r.saveView(path), Where: path}
	for _, v := range views {
		q, err := r.viewQuery(v.Args)
		if err != nil { // checked by savedViews: only a changed command tree gets here
			return app.SavedViews{}, err
		}
		sv.Saved[v.Name] = q
	}
	return sv, nil
}
