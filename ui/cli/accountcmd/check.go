package accountcmd

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// CheckOptions are what `profiles --check` builds its clients on.
type CheckOptions struct {
	Shared account.Shared
	// Tell is handed every token read, for the printer's redaction.
	Tell func(string)
}

// checkRecord is one profile in `profiles --check --json`: never the
// token, only where it was found.
type checkRecord struct {
	Name          string         `json:"name"`
	Endpoint      string         `json:"endpoint"`
	Default       bool           `json:"default"`
	OK            bool           `json:"ok"`
	TokenSource   string         `json:"token_source,omitempty"`
	UserName      string         `json:"user_name,omitempty"`
	Email         string         `json:"email,omitempty"`
	TokenName     string         `json:"token_name,omitempty"`
	WorkspaceID   string         `json:"workspace_id,omitempty"`
	WorkspaceName string         `json:"workspace_name,omitempty"`
	Permissions   []string       `json:"permissions"`
	Lacks         []account.Lack `json:"lacks"`
	Problem       string         `json:"problem,omitempty"`
}

// runCheck is `profiles --check`: whoami for every profile, one block
// each, then how many work; exit 1 when any fails.
func runCheck(ctx context.Context, o ProfilesOptions, env Env, st *store.Store) int {
	all, err := account.CheckProfiles(ctx, env.Account(), st, o.Check.Shared, o.Check.Tell)
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}
	if len(all) == 0 {
		fmt.Fprintln(env.Stderr, "No profiles to check. Run `vaultdeck login` to create one.")
		return printer.ExitError
	}
	failed := 0
	recs := make([]checkRecord, 0, len(all))
	rows := make([][]string, 0, len(all))
	for _, s := range all {
		r := checkRecord{Name: s.Profile, Endpoint: s.Endpoint, Default: s.Default, OK: s.Problem == "",
			TokenSource: string(s.Source), UserName: s.Name, Email: s.Email, TokenName: s.TokenName,
			WorkspaceID: s.WorkspaceID, WorkspaceName: s.WorkspaceName, Permissions: s.Permissions, Lacks: s.Lacks, Problem: s.Problem}
		if r.Permissions == nil {
			r.Permissions = []string{}
		}
		if r.Lacks == nil {
			r.Lacks = []account.Lack{}
		}
		if !r.OK {
			failed++
		}
		recs = append(recs, r)
		rows = append(rows, []string{r.Name, map[bool]string{true: "ok", false: "failed"}[r.OK], sanitize.Line(r.WorkspaceName),
			sanitize.Line(r.Email), r.TokenSource, lacksText(r.Lacks), sanitize.Line(r.Problem)})
	}
	v := printer.Value{JSON: recs, Headers: []string{"NAME", "STATUS", "WORKSPACE", "EMAIL", "TOKEN SOURCE", "LACKS", "PROBLEM"}, Rows: rows}
	v.Text = func(w io.Writer) error {
		for _, s := range all {
			if err := checkBlock(w, s); err != nil {
				return err
			}
		}
		sum := fmt.Sprintf("%s work.", plural.Count(len(all), "profile"))
		if len(all) == 1 {
			sum = "1 profile works."
		}
		if failed > 0 {
			sum = fmt.Sprintf("%d of %s failed.", failed, plural.Count(len(all), "profile"))
		}
		_, err := fmt.Fprintln(w, sum)
		return err
	}
	show := o.Show
	if show == nil {
		show = func(v printer.Value) error { return v.Text(env.Stdout) }
	}
	if err := show(v); err != nil {
		return printer.ExitError
	}
	if failed > 0 {
		return printer.ExitError
	}
	return printer.ExitOK
}

// checkBlock is one profile as gh auth status shows an account: a line
// for who it is, one for each feature it cannot use, or why it fails.
func checkBlock(w io.Writer, s account.ProfileStatus) error {
	head := s.Profile
	if s.Default {
		head += " (default)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s\n", head, sanitize.Line(s.Endpoint))
	if s.Source != token.KindNone {
		fmt.Fprintf(&b, "  token from %s\n", s.Source.Describe())
	}
	if s.Email != "" || s.WorkspaceID != "" {
		fmt.Fprintf(&b, "  %s <%s> in %q (%s), token %q\n", sanitize.Line(s.Name), sanitize.Line(s.Email),
			sanitize.Line(s.WorkspaceName), sanitize.Line(s.WorkspaceID), sanitize.Line(s.TokenName))
	}
	if s.Problem != "" {
		fmt.Fprintf(&b, "  X fails: %s\n", sanitize.Line(s.Problem))
	} else if len(s.Lacks) == 0 {
		fmt.Fprintf(&b, "  ok: every feature's permissions\n")
	} else {
		for _, l := range s.Lacks {
			fmt.Fprintf(&b, "  ok, but cannot use %s: lacks %s\n", l.Feature, strings.Join(l.Permissions, " and "))
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func lacksText(ls []account.Lack) string {
	parts := make([]string, 0, len(ls))
	for _, l := range ls {
		parts = append(parts, l.Feature+": "+strings.Join(l.Permissions, " and "))
	}
	return strings.Join(parts, "; ")
}
