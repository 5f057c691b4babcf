package cli

import (
	"context"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/cli/accountcmd"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// The command line is a tree of cobra commands, one package per noun
// (<noun>cmd) and the root's own here (cmd_*.go), built per call (no
// package state). Every command's RunE returns its exit status as a
// cmdutil.Exit, so any other error coming back from cobra is the command
// line's fault: exit 2, one line.

// newRoot builds the whole tree for one invocation: help, completion, the
// reference and an unknown command's message need every command.
func (r *tree) newRoot() *cobra.Command {
	root := r.bareRoot()
	for _, s := range r.subcommands() {
		root.AddCommand(s.build())
	}
	return r.finishRoot(root)
}

// bareRoot is the root command alone: its flags and the console it runs.
func (r *tree) bareRoot() *cobra.Command {
	root := r.rootBase()
	r.consoleCmd(root) // the root itself runs the console
	return root
}

// rootBase is the root without the console: the global (persistent) flags
// and the texts, all that a command below the root reads of it.
func (r *tree) rootBase() *cobra.Command {
	root := &cobra.Command{
		Use:   "vaultdeck",
		Short: "a terminal console and headless commands for a legal-work workspace's vault",
		Long: `vaultdeck without a command opens the console; with one it runs headless.

Environment: VAULTDECK_TOKEN (API token), VAULTDECK_PROFILE, VAULTDECK_BASE_URL, VAULTDECK_REGION,
VAULTDECK_CA_FILE, VAULTDECK_HOME; all of them: vaultdeck help environment.
Exit status: 0 success, 1 error, 2 usage, 3 some items failed, 4 token refused (vaultdeck help exit-codes).

--jq and --template shape any command's JSON. --jq is gh's: the expression
sees the whole output, a listing being an array (.[] | ... streams it):
  vaultdeck recycle-bin --jq '.[] | .vault_project.name'
  vaultdeck projects --jq 'map(select(.files_count > 10)) | length'
  vaultdeck recycle-bin --template '{{range .}}{{.vault_project.name}}{{"\n"}}{{end}}'
  vaultdeck projects --template '{{range .}}{{tablerow .name (timeago .updated_at)}}{{end}}'`,
		Args:              cmdutil.NoArgs,
		SilenceUsage:      true,
		SilenceErrors:     true,
		DisableAutoGenTag: true,
		// Globals before the command are read by cobra itself (persistent
		// flags); nothing is extracted by hand.
		TraverseChildren: false,
	}
	root.CompletionOptions.DisableDefaultCmd = true // `vaultdeck completion` is ours (cmd_completion.go)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return flagError(err) })
	r.globalFlags(root)
	return root
}

// finishRoot adds what every command of the tree shares: help, the flag
// groups checked first, the examples.
func (r *tree) finishRoot(root *cobra.Command) *cobra.Command {
	root.SetHelpCommand(r.helpCmd(root))
	root.InitDefaultHelpCmd()
	groupsFirst(root)
	addExamples(root)
	examplesFirst(root)
	return root
}

// globalFlags are persistent: accepted before or after any command.
func (r *tree) globalFlags(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.Var(cmdutil.EnumFlag(&r.g.Region, regions()), "region", "regional service `us|eu|au` (default us)")
	pf.StringVar(&r.g.BaseURL, "base-url", "", "custom base `URL` (https; http only to localhost)")
	pf.StringVar(&r.g.CAFile, "ca-file", "", "extra PEM CA certificates to trust, from `FILE`")
	pf.StringVar(&r.g.Profile, "profile", "", "stored profile `NAME` to use")
	r.p.RegisterFlags(pf, r.f.Now) // --json, --jsonl, --csv, --jq, --template
	pf.Var(timeoutFlag{&r.g.Timeout}, "timeout", "how long the service may stay silent, before answering or within an answer (default 30s; one whole answer may take 30 times it: 15m by default)")
	pf.BoolVar(&r.g.Debug.On, "debug", false, "a line per request on stderr: method, path and the query's names, status, bytes, time; retries and budget waits (VAULTDECK_DEBUG=1; =api adds the headers); never the token")
	pf.StringVar(&r.g.Debug.File, "debug-file", "", "write the --debug lines to `FILE` (appended, created 0600) instead of stderr; the console needs one")
	pf.Var(maxRateFlag{&r.g.MaxRate}, "max-rate", "stay below the service's limits: a share of each (`80%`) or requests a minute (6)")
	root.MarkFlagsMutuallyExclusive("json", "jsonl", "csv")
	root.MarkFlagsMutuallyExclusive("csv", "jq", "template")
	for _, other := range []string{"json", "jsonl", "jq", "template"} {
		root.MarkFlagsMutuallyExclusive("excel", other) // --excel is a CSV
	}
	_ = root.RegisterFlagCompletionFunc("jq", cmdutil.NoCompletion)
	_ = root.RegisterFlagCompletionFunc("template", cmdutil.NoCompletion)
	_ = root.RegisterFlagCompletionFunc("profile", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return accountcmd.ProfileNames(r.f.Store), cobra.ShellCompDirectiveNoFileComp
	})
	_ = root.RegisterFlagCompletionFunc("region", cmdutil.Fixed(regions()))
}

func regions() []string { return []string{"us", "eu", "au"} }

// run adapts a command body to cobra (cmdutil.Run).
func (r *tree) run(body func(ctx context.Context, args []string) int) func(*cobra.Command, []string) error {
	return cmdutil.Run(r.f, body)
}

func commandName(c *cobra.Command) string { return cmdutil.CommandName(c) }

// Main runs the command line args (without the program name).
func Main(ctx context.Context, args []string, env Env) int {
	if env.Stdout == nil {
		env.Stdout = io.Discard
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	if env.Stdin == nil {
		env.Stdin = strings.NewReader("")
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	r := newTree(env)
	defer env.Logs.Route(r.p.Library, nil)() // a library's line goes to this command's stderr, redacted as it is
	// gh's `--json name,id`: the word after --json is its fields unless
	// it names a command: the top-level ones first, then those of the
	// tree built for these words (`audit --json stats`).
	given := args
	args = printer.JoinJSONFields(given, r.topLevelName)
	root := r.newRootFor(args)
	if again := printer.JoinJSONFields(given, commandNames(root)); !slices.Equal(again, args) {
		args, root = again, r.newRootFor(again)
	}
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	// cobra's own output (help, usage) is the printer's too: checked,
	// counted, and said by Finish when the stream refused it.
	root.SetOut(r.env.Stdout)
	root.SetErr(r.env.Stderr)
	// Building the tree above writes nothing and changes nothing: the
	// signals are registered by now, before the command runs or writes.
	if env.Signals != nil {
		env.Signals()
	}
	c, err := root.ExecuteContextC(ctx)
	if derr := r.f.DebugErr(); derr != nil {
		// the command's outcome stands, said as it was; the debug log it
		// was asked for and lost makes it fail
		r.p.Note("%v", derr)
		var exit *cmdutil.Exit
		if code := ExitOK; err == nil || errors.As(err, &exit) {
			if exit != nil {
				code = exit.Code
			}
			return r.p.Finish(max(code, ExitError))
		}
	}
	var exit *cmdutil.Exit
	switch {
	case errors.As(err, &exit):
		return r.p.Finish(exit.Code)
	case err != nil:
		name := ""
		if c != nil {
			name = commandName(c)
		}
		r.p.Start(ctx, name)
		return r.p.Finish(r.p.UsageError(usageError(err)))
	}
	if c != nil {
		r.p.Start(ctx, commandName(c)) // its messages are named for it, the stdout line too
	}
	return r.p.Finish(ExitOK) // help, or a command that only groups others
}

// pflag's and cobra's messages, matched only when a command line is wrong:
// compiled then, not at start-up (package initialisation is on the path of
// every command, the console's first frame included).
var (
	reUnknownFlag  = lazyRegexp(`^unknown (?:shorthand )?flag: (?:'(.)' in )?(-{1,2}[^ ]+)`)
	reNeedsValue   = lazyRegexp(`^flag needs an argument: (?:'(.)' in )?(-{1,2}[^ ]+)`)
	reInvalidValue = lazyRegexp(`^invalid argument "(.*)" for "(?:-., )?(--[^"]+)" flag: (.*)$`)
	reExclusive    = lazyRegexp(`^if any flags in the group \[([^\]]*)\] are set none of the others can be; \[([^\]]*)\] were all set$`)
	reUnknownCmd   = lazyRegexp(`^unknown command "([^"]*)" for "[^"]*"`)
)

// lazyRegexp compiles expr on its first use.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// topLevelName reports whether w names a command below the root.
func (r *tree) topLevelName(w string) bool {
	for _, s := range r.subcommands() {
		if s.name == w {
			return true
		}
	}
	return false
}

// commandNames reports whether a word names a command of the tree as built
// (the running command's path, whole): `--json projects` is not a field.
func commandNames(root *cobra.Command) func(string) bool {
	names := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		names[c.Name()] = true
		for _, a := range c.Aliases {
			names[a] = true
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	return func(w string) bool { return names[w] }
}

// flagError rewrites pflag's messages in the product's form: "unknown flag
// --x", "--x needs a value", `invalid value "v" for --x (why)`.
func flagError(err error) error {
	if cmdutil.IsUsage(err) {
		return err
	}
	msg := err.Error()
	if m := reUnknownFlag().FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			return cmdutil.Usagef("unknown flag -%s", m[1])
		}
		return cmdutil.Usagef("unknown flag --%s", strings.TrimLeft(m[2], "-"))
	}
	if m := reNeedsValue().FindStringSubmatch(msg); m != nil {
		return cmdutil.Usagef("--%s needs a value", strings.TrimLeft(m[2], "-"))
	}
	if m := reInvalidValue().FindStringSubmatch(msg); m != nil {
		why := m[3]
		if i := strings.LastIndex(why, ": "); strings.HasPrefix(why, "strconv.") && i >= 0 {
			why = strings.TrimPrefix(why[i+2:], "invalid syntax")
		}
		if why != "" {
			why = " (" + why + ")"
		}
		return cmdutil.Usagef("invalid value %q for %s%s", m[1], m[2], why)
	}
	return cmdutil.Usagef("%s", msg)
}

// usageError is flagError for everything cobra returns (argument checks,
// flag groups, unknown commands).
func usageError(err error) error {
	msg := err.Error()
	if m := reExclusive().FindStringSubmatch(msg); m != nil {
		var set []string
		for _, f := range []string{"csv", "excel", "json", "jsonl", "jq", "template"} { // the order of the message
			if slices.Contains(strings.Fields(m[2]), f) {
				set = append(set, "--"+f)
			}
		}
		if len(set) < 2 {
			return cmdutil.Usagef("%s", msg)
		}
		return cmdutil.Usagef("%s cannot be combined with %s: choose one output format", set[0], strings.Join(set[1:], " or "))
	}
	if m := reUnknownCmd().FindStringSubmatch(msg); m != nil {
		return cmdutil.Usagef("unknown command %q", m[1])
	}
	return flagError(err)
}

// timeoutFlag is --timeout: a positive duration.
type timeoutFlag struct{ d *time.Duration }

func (t timeoutFlag) String() string {
	if t.d == nil || *t.d == 0 {
		return ""
	}
	return t.d.String()
}
func (t timeoutFlag) Type() string { return "duration" }
func (t timeoutFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errors.New("a positive duration such as 30s or 2m")
	}
	*t.d = d
	return nil
}

// maxRateFlag is --max-rate: a share of each limit (80%) or requests a
// minute (6), checked while parsing.
type maxRateFlag struct{ m *account.MaxRate }

func (f maxRateFlag) String() string {
	if f.m == nil || !f.m.Set() {
		return ""
	}
	return f.m.String()
}
func (f maxRateFlag) Type() string { return "rate" }
func (f maxRateFlag) Set(s string) error {
	m, err := account.ParseMaxRate(s)
	if err != nil {
		return err
	}
	*f.m = m
	return nil
}

// groupsFirst makes every command check its flag groups (--json with
// --jsonl) before its arguments, so the output-format clash is the one
// reported whatever else is wrong.
func groupsFirst(c *cobra.Command) {
	args := c.Args
	c.Args = func(c *cobra.Command, a []string) error {
		if err := c.ValidateFlagGroups(); err != nil {
			return err
		}
		if args == nil {
			return nil
		}
		return args(c, a)
	}
	for _, s := range c.Commands() {
		groupsFirst(s)
	}
}
