package account

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
)

// Feature is something a person does with vaultdeck, named by its
// commands, and the endpoints it calls: `profiles --check` says which
// features a token cannot use, before a command meets the 403.
type Feature struct {
	Name string
	// Prefixes select the endpoints ("METHOD /path") of api.Requirements
	// the feature calls.
	Prefixes []string
}

// Features are the product's features in the order `profiles --check`
// names them. Every endpoint of api.Requirements belongs to one
// (TestEveryEndpointBelongsToAFeature).
func Features() []Feature {
	return []Feature{
		{"projects, recycle-bin", []string{"GET /api/v1/vault/workspace/"}},
		{"files, status, a project's metadata", []string{"GET /api/v1/vault/projects/{project_id}/files", "GET /api/v1/vault/get_files", "GET /api/v1/vault/get_metadata/"}},
		{"users (who a project is shared with)", []string{"GET /api/v1/vault/projects/{project_id}/users"}},
		{"changing who a project is shared with", []string{"POST /api/v1/vault/projects/{project_id}/users", "DELETE /api/v1/vault/projects/{project_id}/users"}},
		{"upload, deleting files and projects", []string{"POST /api/v1/vault/upload_files/", "DELETE /api/v1/vault/delete_file/", "DELETE /api/v1/vault/delete_project/"}},
		{"audit, person, access", []string{"GET /api/v1/logs/audit"}},
		{"matters", []string{"DELETE /api/v2/matters", "POST /api/v2/matters", "GET /api/v1/client_matters"}},
	}
}

// Lack is one feature a token cannot use and the permissions it lacks for
// it (each "A" or "A or B").
type Lack struct {
	Feature     string   `json:"feature"`
	Permissions []string `json:"permissions"`
}

// Lacks returns the features perms cannot use, in Features' order.
func Lacks(perms []string) []Lack {
	reqs := api.Requirements()
	var out []Lack
	for _, f := range Features() {
		var missing []string
		for _, r := range reqs {
			if !slices.ContainsFunc(f.Prefixes, func(p string) bool { return strings.HasPrefix(r.Endpoint, p) }) {
				continue
			}
			for _, l := range r.Lacks(perms) {
				if !slices.Contains(missing, l) {
					missing = append(missing, l)
				}
			}
		}
		if len(missing) > 0 {
			out = append(out, Lack{Feature: f.Name, Permissions: missing})
		}
	}
	return out
}

// ProfileStatus is what `profiles --check` learnt of one profile: where
// its token came from (never the token), who whoami says it is, what it
// lacks, and, when the profile does not work, why.
type ProfileStatus struct {
	Profile  string
	Endpoint string
	Default  bool
	// Source is where the token was found (env, keyring, file,
	// credential); "" when none was.
	Source token.Kind
	// From whoami; empty when it failed.
	Name, Email, TokenName     string
	WorkspaceID, WorkspaceName string
	Permissions                []string
	Lacks                      []Lack
	// Problem says why the profile does not work ("" when it does); a
	// profile with a problem fails the check.
	Problem string
	Elapsed time.Duration
}

// CheckTimeout bounds one profile's check; the client retries within it.
const CheckTimeout = 30 * time.Second

// CheckProfiles asks whoami for every stored profile, as a command run
// with --profile NAME would (the environment's endpoint and token apply),
// one after the other. tell is handed each token read, for the caller's
// redaction; sh builds the clients (whoami costs no budget).
func CheckProfiles(ctx context.Context, e Env, st *store.Store, sh Shared, tell func(string)) ([]ProfileStatus, error) {
	all, cfg, err := AllProfiles(e, st)
	if err != nil {
		return nil, err
	}
	out := make([]ProfileStatus, 0, len(all))
	for _, p := range all {
		out = append(out, checkProfile(ctx, e, st, cfg, p, sh, tell))
	}
	return out, nil
}

func checkProfile(ctx context.Context, e Env, st *store.Store, cfg *ConfigFile, p store.Profile, sh Shared, tell func(string)) ProfileStatus {
	s := ProfileStatus{Profile: p.Name, Endpoint: p.Endpoint(), Default: p.IsDefault}
	start := time.Now()
	defer func() { s.Elapsed = time.Since(start) }()
	fail := func(format string, a ...any) ProfileStatus { s.Problem = fmt.Sprintf(format, a...); return s }

	src, err := TokenSource(e, p)
	if err != nil {
		return fail("%v", err)
	}
	settings, err := settingsOf(st, cfg, p)
	if err != nil {
		return fail("its settings could not be read: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, CheckTimeout)
	defer cancel()
	tok, err := src.Resolve(cctx)
	if err != nil {
		return fail("no token: %v", err)
	}
	s.Source = tok.Source
	if tell != nil {
		tell(tok.Token)
	}
	res, err := Resolve(Request{Getenv: e.Getenv, Chosen: &Chosen{Profile: p, By: ChosenByFlag, Settings: settings, Source: src},
		Token: token.NewFixed(tok.Token)})
	if err != nil {
		return fail("%v", err)
	}
	if res.BaseURL != p.BaseURL || res.Region != p.Region {
		s.Endpoint = Where(res.BaseURL, res.Region, res.BaseURL) + " (from the environment)"
	}
	c, err := res.Client(sh)
	if err != nil {
		return fail("%v", err)
	}
	w, err := c.WhoAmI(cctx)
	if err != nil {
		msg := err.Error()
		if tok.Token != "" {
			msg = strings.ReplaceAll(msg, tok.Token, "[redacted]")
		}
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			return fail("the check was canceled")
		}
		return fail("%s", msg)
	}
	s.Name, s.Email, s.TokenName = w.Name, w.Email, w.TokenName
	s.WorkspaceID, s.WorkspaceName, s.Permissions = w.WorkspaceID, w.WorkspaceName, w.Permissions
	s.Lacks = Lacks(w.Permissions)
	if p.WorkspaceID != "" && w.WorkspaceID != p.WorkspaceID {
		return fail("the token answers for workspace %s, but the profile was logged in to %s; every other request is refused (run `vaultdeck login --profile %s`)",
			workspaceLabel(w.WorkspaceName, w.WorkspaceID), workspaceLabel(p.WorkspaceName, p.WorkspaceID), p.Name)
	}
	return s
}

func workspaceLabel(name, id string) string {
	if name == "" {
		return id
	}
	return fmt.Sprintf("%q (%s)", name, id)
}
