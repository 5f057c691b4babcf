package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// `vaultdeck access ...`: the access review (api/access). This file parses
// the command line only; each subcommand's work is a function of a plain
// options struct in access_run.go, so another flag parser can call it.

const accessUsage = "crawl [--rate N] | user EMAIL | project ID | diff [SNAPSHOT] [SNAPSHOT] | snapshots"

func (r *runner) access(ctx context.Context, args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprintf(r.env.Stdout, "Usage: vaultdeck access %s\n", accessUsage)
			return ExitOK
		}
		return oneLineUsage(r.env.Stderr, "access", usagef("give a subcommand: %s", accessUsage))
	}
	sub, rest := args[0], args[1:]
	r.cmd = "access " + sub
	switch sub {
	case "crawl":
		fs := r.newFlagSet(r.cmd, "[--rate N]")
		rate := fs.Int("rate", 10, "vault requests a minute the crawl may use: at most the service's 10 (less leaves room for colleagues); more only against a simulator on this machine")
		if code, ok := r.parseNoArgs(fs, rest); !ok {
			return code
		}
		return r.accessCrawl(ctx, accessCrawlOptions{Rate: *rate})
	case "user":
		fs := r.newFlagSet(r.cmd, "EMAIL [--snapshot N]")
		snap := fs.Int64("snapshot", 0, "read snapshot `N` (default: the last finished one)")
		pos, code, ok := r.parseFlags(fs, rest)
		if !ok {
			return code
		}
		if len(pos) != 1 || !strings.Contains(pos[0], "@") {
			return r.usage(fs, "give exactly one e-mail address")
		}
		return r.accessUser(accessQueryOptions{Email: strings.TrimSpace(pos[0]), Snapshot: *snap})
	case "project":
		fs := r.newFlagSet(r.cmd, "PROJECT_ID [--snapshot N]")
		snap := fs.Int64("snapshot", 0, "read snapshot `N` (default: the last finished one)")
		id, code, ok := r.parseProjectID(fs, rest)
		if !ok {
			return code
		}
		return r.accessProject(accessQueryOptions{ProjectID: id, Snapshot: *snap})
	case "diff":
		fs := r.newFlagSet(r.cmd, "[OLD_SNAPSHOT] [NEW_SNAPSHOT]")
		pos, code, ok := r.parseFlags(fs, rest)
		if !ok {
			return code
		}
		if len(pos) > 2 {
			return r.usage(fs, "give at most two snapshot numbers (default: the last two)")
		}
		var ids [2]int64
		for i, p := range pos {
			n, err := strconv.ParseInt(p, 10, 64)
			if err != nil || n <= 0 {
				return r.usage(fs, "%q is not a snapshot number (see `vaultdeck access snapshots`)", p)
			}
			ids[i] = n
		}
		return r.accessDiff(accessDiffOptions{Old: ids[0], New: ids[1]})
	case "snapshots":
		fs := r.newFlagSet(r.cmd, "")
		if code, ok := r.parseNoArgs(fs, rest); !ok {
			return code
		}
		return r.accessSnapshots()
	}
	return oneLineUsage(r.env.Stderr, "access", usagef("unknown subcommand %q; give one of: %s", sub, accessUsage))
}
