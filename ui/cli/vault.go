package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/triage"
)

// parseFlags parses a subcommand's flags, allowing them between positional
// arguments (stdlib flag stops at the first one). Everything after "--" is
// positional. It returns the positionals, or an exit status when parsing
// ended the command (usage error, or -h).
func (r *runner) parseFlags(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	fs.SetOutput(io.Discard) // errors are reported in one line below
	var tail []string
	for i, a := range args {
		if a == "--" {
			args, tail = args[:i], args[i+1:]
			break
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				fs.SetOutput(r.env.Stdout)
				fs.Usage()
				return nil, ExitOK, false
			}
			return nil, oneLineUsage(r.env.Stderr, r.cmd, parseError(err)), false
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return append(pos, tail...), 0, true
}

func (r *runner) newFlagSet(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: vaultdeck %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// fail prints an error and returns the error status.
func (r *runner) fail(err error) int {
	fmt.Fprintf(r.env.Stderr, "vaultdeck %s: %s\n", r.cmd, oneLine(err.Error()))
	return ExitError
}

// parseNoArgs is parseFlags for a command that takes no positional argument.
func (r *runner) parseNoArgs(fs *flag.FlagSet, args []string) (int, bool) {
	pos, code, ok := r.parseFlags(fs, args)
	if !ok {
		return code, false
	}
	if len(pos) > 0 {
		return r.usage(fs, "unexpected argument %q", pos[0]), false
	}
	return 0, true
}

// parseProjectID is parseFlags for a command that takes exactly one project ID.
func (r *runner) parseProjectID(fs *flag.FlagSet, args []string) (string, int, bool) {
	pos, code, ok := r.parseFlags(fs, args)
	if !ok {
		return "", code, false
	}
	if len(pos) != 1 {
		return "", r.usage(fs, "give exactly one project ID"), false
	}
	if err := checkUUID("project ID", pos[0]); err != nil {
		return "", oneLineUsage(r.env.Stderr, r.cmd, err), false
	}
	return pos[0], 0, true
}

// usage reports a usage error in one line naming the problem and the
// command's help (exit 2).
func (r *runner) usage(_ *flag.FlagSet, format string, a ...any) int {
	return oneLineUsage(r.env.Stderr, r.cmd, usagef(format, a...))
}

func (r *runner) projects(ctx context.Context, args []string) int {
	fs := r.newFlagSet("projects", "[--name S]")
	name := fs.String("name", "", "only projects whose name contains `S` (case-insensitive)")
	if code, ok := r.parseNoArgs(fs, args); !ok {
		return code
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	out := r.listing("[", "NAME", "ID", "FILES", "SIZE", "UPDATED", "CREATOR", "KB")
	ctx = api.WithWaitObserver(ctx, out.p.observe)
	err = c.EachProjectPage(ctx, *name, func(page []api.Item[api.Project]) error {
		return out.page(len(page), func(i int) []byte { return page[i].JSON }, func(i int) []string {
			p := page[i].Value
			return []string{p.Name, p.ID, fmt.Sprint(int64(p.FilesCount)), r.size(p.SizeBytes), fmtTime(p.UpdatedAt), p.CreatorEmail, yesNo(p.IsKnowledgeBaseProject)}
		})
	})
	return out.end(err, "]")
}

func (r *runner) users(ctx context.Context, args []string) int {
	fs := r.newFlagSet("users", "PROJECT_ID")
	projectID, code, ok := r.parseProjectID(fs, args)
	if !ok {
		return code
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	ctx = api.WithWaitObserver(ctx, r.listProgress().observe)
	users, err := c.ProjectUserItems(ctx, projectID)
	if err != nil {
		return r.fail(err)
	}
	if r.jsonOut() {
		return emitItems(r, users, func(u api.Item[api.ProjectUser]) []byte { return u.JSON })
	}
	t := r.table("NAME", "EMAIL", "ACCESS", "USER ID")
	for _, u := range users {
		x := u.Value
		t.row(x.Name, x.Email, x.AccessLevel, x.UserID)
	}
	return r.done(t.flush())
}

func (r *runner) files(ctx context.Context, args []string) int {
	fs := r.newFlagSet("files", "PROJECT_ID [--status S[,S]]")
	status := fs.String("status", "", "only files in processing status `S` (comma-separated, any case)")
	name := fs.String("name", "", "only files whose name contains `S`")
	projectID, code, ok := r.parseProjectID(fs, args)
	if !ok {
		return code
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	q := api.FileQuery{Name: *name, Statuses: splitList(*status)}
	out := r.listing("[", "NAME", "ID", "STATUS", "SIZE", "UPLOADED", "TYPE")
	ctx = api.WithWaitObserver(ctx, out.p.observe)
	err = c.EachProjectFilePage(ctx, projectID, q, func(page []api.Item[api.ProjectFile]) error {
		return out.page(len(page), func(i int) []byte { return page[i].JSON }, func(i int) []string {
			f := page[i].Value
			return []string{f.Name, f.ID, triage.Word(f.ProcessingStatus), r.size(f.Size), fmtTime(f.UploadedAt), f.ContentType}
		})
	})
	return out.end(err, "]")
}

func (r *runner) status(ctx context.Context, args []string) int {
	fs := r.newFlagSet("status", "FILE_ID... | - [--watch [--stuck-after D]] | --journal")
	watch := fs.Bool("watch", false, "poll until every file is ready, failed or missing, printing changes (NDJSON with --json)")
	journal := fs.Bool("journal", false, "every unfinished file of the profile's journaled uploads, across projects")
	stuckAfter := new(time.Duration)
	durationFlag(fs, stuckAfter, "stuck-after", 30*time.Minute, "with --watch or --journal: a file processing longer than `D` is stuck")
	pos, code, ok := r.parseFlags(fs, args)
	if !ok {
		return code
	}
	if *journal {
		if len(pos) > 0 || *watch {
			return r.usage(fs, "--journal takes no file IDs and no --watch: it lists the upload journal's unfinished files")
		}
		return r.journalStatus(ctx, journalOptions{StuckAfter: *stuckAfter})
	}
	var ids []string
	readStdin := false
	for _, a := range pos {
		if a == "-" {
			readStdin = true
			continue
		}
		ids = append(ids, splitList(a)...)
	}
	if readStdin {
		more, err := readIDs(r.env.Stdin)
		if err != nil {
			return r.fail(fmt.Errorf("reading file IDs from stdin: %w", err))
		}
		ids = append(ids, more...)
	}
	if len(ids) == 0 {
		return r.usage(fs, "give at least one file ID (or - to read them from stdin)")
	}
	for _, id := range ids {
		if err := checkUUID("file ID", id); err != nil {
			return oneLineUsage(r.env.Stderr, r.cmd, err)
		}
	}
	if *watch && r.g.CSV {
		return r.usage(fs, "--watch prints changes as they come; it does not combine with --csv")
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	if *watch {
		return r.watch(ctx, c, ids, *stuckAfter)
	}
	// 1000 IDs a request at the vault's 10 requests a minute: say so
	// when the budget makes it wait.
	ctx = api.WithWaitObserver(ctx, r.listProgress().observe)
	recs, err := c.GetFileItems(ctx, ids)
	if err != nil {
		return r.fail(err)
	}
	failed := 0
	for _, f := range recs {
		if f.Value.Failed() {
			failed++
		}
	}
	var rc int
	if r.jsonOut() {
		rc = emitItems(r, recs, func(f api.Item[api.FileDetail]) []byte { return f.JSON })
	} else {
		t := r.table("FILE ID", "NAME", "STATUS", "TYPE", "DELETED")
		for _, it := range recs {
			f := it.Value
			st := triage.Word(f.ProcessingStatus)
			if f.Failed() {
				st = "error: " + f.Error
			}
			t.row(f.FileID, f.FileName, st, f.ContentType, fmtTimePtr(f.DeletedAt))
		}
		rc = r.done(t.flush())
	}
	if rc == ExitOK && failed > 0 {
		fmt.Fprintf(r.env.Stderr, "vaultdeck status: %d of %d file IDs were not found or not accessible\n", failed, len(recs))
		return ExitPartial
	}
	return rc
}

// readIDs reads IDs as people paste them (one per line, or separated by
// commas, semicolons or spaces; BOM, CRLF, quotes and blank lines
// tolerated; duplicates dropped): api.ParseIDs, the console's reader too.
func readIDs(in io.Reader) ([]string, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	return api.ParseIDs(string(data)), nil
}

// splitList splits a comma-separated list, dropping blanks and whitespace.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
