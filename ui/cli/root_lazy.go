package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/vaultdeck/vaultdeck/ui/cli/accesscmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/accountcmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/auditcmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/matterscmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/personcmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/recyclebincmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/statuscmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/storecmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/uploadcmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/vaultcmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/viewcmd"
)

// Building the whole command tree cost every start (the console's first
// frame included) some 1,300 allocations and the page faults of touching
// every command's code, for the one command that runs (issue 32). Main
// builds the root and that command only (the demo: 392 allocations); help
// (-h, --help, help X), completion, docs and anything it cannot place get
// the whole tree, as before.
// TestLazyTreeMatchesTheWholeOne holds each command built alone to the
// same command in the whole tree.

// subcommand is one of the root's commands, built only when needed.
type subcommand struct {
	name  string // the command's Name(), which args select it by
	build func() *cobra.Command
}

// subcommands are the root's commands in the order they are added.
func (r *tree) subcommands() []subcommand {
	return []subcommand{
		{"projects", func() *cobra.Command { return vaultcmd.NewCmdProjects(r.f, nil) }},
		{"users", func() *cobra.Command { return vaultcmd.NewCmdUsers(r.f, nil) }},
		{"files", func() *cobra.Command { return vaultcmd.NewCmdFiles(r.f, nil) }}, {"status", func() *cobra.Command { return statuscmd.NewCmdStatus(r.f, nil) }},
		{"recycle-bin", func() *cobra.Command { return recyclebincmd.NewCmdRecycleBin(r.f, nil) }}, {"audit", func() *cobra.Command { return auditcmd.NewCmdAudit(r.f, nil) }}, {"view", func() *cobra.Command { return viewcmd.NewCmdView(r.f, r.views, r.runSaved) }}, {"upload", func() *cobra.Command { return uploadcmd.NewCmdUpload(r.f, nil) }},
		{"uploads", func() *cobra.Command { return uploadcmd.NewCmdUploads(r.f) }}, {"whoami", func() *cobra.Command { return accountcmd.NewCmdWhoami(r.f, nil) }}, {"access", func() *cobra.Command { return accesscmd.NewCmdAccess(r.f) }}, {"person", func() *cobra.Command { return personcmd.NewCmdPerson(r.f, nil, planRemoval) }},
		{"matters", func() *cobra.Command { return matterscmd.NewCmdMatters(r.f) }}, {"login", func() *cobra.Command { return accountcmd.NewCmdLogin(r.f, r.env.Login) }},
		{"logout", func() *cobra.Command { return accountcmd.NewCmdLogout(r.f, r.env.Logout) }},
		{"profiles", func() *cobra.Command { return accountcmd.NewCmdProfiles(r.f, r.env.Profiles) }},
		{"sim", r.simCmd}, {"demo", r.demoCmd}, {"serve", r.serveCmd}, {"config", func() *cobra.Command { return accountcmd.NewCmdConfig(r.f) }},
		{"store", func() *cobra.Command { return storecmd.NewCmdStore(r.f) }},
		{"completion", r.completionCmd}, {"version", r.versionCmd}, {"docs", r.docsCmd},
	}
}

// wholeTree are the commands that read the whole tree (completion and docs
// walk it from the root).
var wholeTree = map[string]bool{"completion": true, "docs": true}

// newRootFor builds what args run: the root (the console) or the root and
// the one command args name; the whole tree when they ask for help or name
// no command it knows (cobra's suggestions), or when cobra would read them
// otherwise than commandWord did.
func (r *tree) newRootFor(args []string) *cobra.Command {
	// A command word first (`vaultdeck demo ...`): no flag of the root's
	// own (the console's, local to it) can be in args, where the words
	// before the command would be, so the root is built without them
	// (about a third of the command line's set-up on the demo's way to its
	// first frame). Anything else reads args with them.
	root := r.bareRoot
	if len(args) > 0 && args[0] != "" && !strings.HasPrefix(args[0], "-") {
		root = r.rootBase
	}
	return r.rootFor(root(), args)
}

func (r *tree) rootFor(root *cobra.Command, args []string) *cobra.Command {
	word, ok := commandWord(root, args)
	if !ok || wholeTree[word] {
		return r.newRoot()
	}
	if word != "" {
		found := false
		for _, s := range r.subcommands() {
			if s.name == word {
				root.AddCommand(s.build())
				found = true
				break
			}
		}
		if !found {
			return r.newRoot()
		}
	}
	r.finishRoot(root)
	// The check: cobra finds the command commandWord named (or the root).
	if c, _, err := root.Find(args); err != nil || (word == "" && c != root) || (word != "" && (c == root || commandPathWord(c) != word)) {
		return r.newRoot() // its flags bind to r again, replacing this root's
	}
	return root
}

// commandPathWord is the first word of c's path below the root.
func commandPathWord(c *cobra.Command) string {
	for c.HasParent() && c.Parent().HasParent() {
		c = c.Parent()
	}
	return c.Name()
}

// commandWord reads args as cobra's Find does with the root's flags: the
// first word that is neither a flag nor a flag's value ("" for none, the
// console). ok is false when args ask for help (-h, --help), which lists
// every command.
func commandWord(root *cobra.Command, args []string) (word string, ok bool) {
	local, global := root.Flags(), root.PersistentFlags()
	lookup := func(name string) *pflag.Flag {
		if f := local.Lookup(name); f != nil {
			return f
		}
		return global.Lookup(name)
	}
	short := func(name string) *pflag.Flag {
		if f := local.ShorthandLookup(name); f != nil {
			return f
		}
		return global.ShorthandLookup(name)
	}
	for _, s := range args {
		if s == "--" {
			break
		}
		if s == "-h" || s == "--help" || strings.HasPrefix(s, "--help=") {
			return "", false
		}
	}
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "--":
			return "", true
		case strings.HasPrefix(s, "--") && !strings.Contains(s, "="):
			// A flag without NoOptDefVal (or unknown) takes the next
			// word as its value; cobra stops looking when at most one
			// word is left after it.
			if f := lookup(s[2:]); f == nil || f.NoOptDefVal == "" {
				if len(args)-i-1 <= 1 {
					return "", true
				}
				i++
			}
		case strings.HasPrefix(s, "-") && !strings.Contains(s, "=") && len(s) == 2:
			if f := short(s[1:]); f == nil || f.NoOptDefVal == "" {
				if len(args)-i-1 <= 1 {
					return "", true
				}
				i++
			}
		case s != "" && !strings.HasPrefix(s, "-"):
			return s, true
		}
	}
	return "", true
}

// planRemoval is person --offboarding --plan: access plan --remove EMAIL,
// run by the access command's own code (a command package imports no other).
func planRemoval(ctx context.Context, o *personcmd.Options) int {
	return accesscmd.RunPlan(ctx, &accesscmd.Options{IO: o.IO, Client: o.Client, Journal: o.Journal, Now: o.Now,
		PlanOpts: accesscmd.PlanOptions{Remove: o.Email, NewManager: o.NewManager, Out: o.Out}})
}
