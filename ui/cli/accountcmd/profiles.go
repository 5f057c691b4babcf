package accountcmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// LogoutOptions are logout's flags.
type LogoutOptions struct {
	Profile string
	Forget  bool
	IO      Streams
}

// RunLogout is `vaultdeck logout` with its flags parsed.
func RunLogout(ctx context.Context, o LogoutOptions, env Env) int {
	env = env.on(o.IO)
	profile, forget := &o.Profile, &o.Forget
	st, err := env.Account().OpenStore()
	if err != nil {
		fmt.Fprintf(env.Stderr, "The local database could not be opened: %v\n", err)
		return printer.ExitError
	}
	defer st.Close()

	p, by, err := account.Select(env.Account(), st, *profile)
	if err == nil && by == account.ChosenByToken {
		err = errors.New("no profile exists, so there is nothing to log out of; the token comes from VAULTDECK_TOKEN, which only your shell can unset")
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}
	src, err := account.TokenSource(env.Account(), p)
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}
	rm, err := src.Remove(ctx)
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}
	// A keyring we cannot reach only matters if the token was put there.
	if rm.KeyringErr != nil && p.TokenStorage != store.StorageFile {
		fmt.Fprintf(env.Stderr, "The token for profile %q could not be removed: %v. Unlock the keyring and run `vaultdeck logout --profile %s` again, or delete the entry (service %q, account %q) with your keyring manager.\n",
			p.Name, rm.KeyringErr, p.Name, token.Service, p.Name)
		return printer.ExitError
	}
	if *forget {
		if err := st.DeleteProfile(p.Name); err != nil {
			fmt.Fprintln(env.Stderr, sentence(err))
			return printer.ExitError
		}
	} else if err := st.SetTokenStorage(p.Name, store.StorageNone); err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}

	switch {
	case rm.Keyring && rm.File:
		fmt.Fprintf(env.Stdout, "Logged out of profile %q: the token was removed from the system keyring and its plain-text file.\n", p.Name)
	case rm.Keyring:
		fmt.Fprintf(env.Stdout, "Logged out of profile %q: the token was removed from the system keyring.\n", p.Name)
	case rm.File:
		fmt.Fprintf(env.Stdout, "Logged out of profile %q: the plain-text token file was deleted.\n", p.Name)
	default:
		fmt.Fprintf(env.Stdout, "Profile %q had no saved token; nothing to remove.\n", p.Name)
	}
	if *forget {
		fmt.Fprintf(env.Stdout, "The profile and its cached data were deleted.\n")
	} else {
		fmt.Fprintf(env.Stdout, "The profile's settings are kept; run `vaultdeck login --profile %s` to log in again, or `vaultdeck logout --profile %s --forget` to delete it.\n", p.Name, p.Name)
	}
	if env.getenv(token.EnvVar) != "" {
		fmt.Fprintf(env.Stderr, "Note: %s is still set in this shell and still supplies a token; unset it too.\n", token.EnvVar)
	}
	return printer.ExitOK
}

// ProfilesOptions are the profiles command's flags.
type ProfilesOptions struct {
	Profile    string // treat this profile as the active one
	SetDefault string
	IO         Streams
	// Show prints the profiles in the chosen format (the printer's);
	// nil: the table, on IO's stdout.
	Show func(printer.Value) error
	// Check, when set, is --check: whoami for every profile.
	Check *CheckOptions
}

// RunProfiles is `vaultdeck profiles` with its flags parsed.
func RunProfiles(ctx context.Context, o ProfilesOptions, env Env) int {
	env = env.on(o.IO)
	profile, setDefault := &o.Profile, &o.SetDefault
	st, err := env.Account().OpenStore()
	if err != nil {
		fmt.Fprintf(env.Stderr, "The local database could not be opened: %v\n", err)
		return printer.ExitError
	}
	defer st.Close()

	if *setDefault != "" {
		if cfg, err := account.ReadConfigFile(env.Account()); err != nil || (cfg != nil && cfg.Default != "") {
			if err == nil {
				err = fmt.Errorf("the configuration file sets the default profile at %s, which owns it: change it there", cfg.At(cfg.DefaultLine))
			}
			fmt.Fprintln(env.Stderr, sentence(err))
			return printer.ExitError
		}
		if err := st.SetDefault(*setDefault); err != nil {
			fmt.Fprintln(env.Stderr, sentence(err))
			return printer.ExitError
		}
		fmt.Fprintf(env.Stdout, "%q is now the default profile.\n", *setDefault)
	}
	if o.Check != nil {
		return runCheck(ctx, o, env, st)
	}
	all, cfg, err := account.AllProfiles(env.Account(), st)
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}
	if len(all) == 0 {
		// a person reads the sentence; a script the empty listing ([] under
		// --json, as every listing's), not the sentence
		v := printer.Value{JSON: []profileRecord{}, Text: func(w io.Writer) error {
			_, err := fmt.Fprintln(w, "No profiles yet. Run `vaultdeck login` to create one.")
			return err
		}}
		show := o.Show
		if show == nil {
			show = func(v printer.Value) error { return v.Text(env.Stdout) }
		}
		if err := show(v); err != nil {
			return printer.ExitError
		}
		return printer.ExitOK
	}
	active, by, selErr := account.Select(env.Account(), st, *profile)
	v := profilesValue(all, cfg, func(p store.Profile) bool { return selErr == nil && p.Name == active.Name })
	if selErr == nil {
		// Under the table only: JSON's reader has "active" in each record.
		v.Foot = fmt.Sprintf("\n* active profile (chosen by %s). Pick another with --profile NAME or %s; change the default with `vaultdeck profiles --set-default NAME`.", by, account.ProfileEnvVar)
		if env.getenv(token.EnvVar) != "" {
			v.Foot += fmt.Sprintf("\n%s is set, so it supplies the token whatever is saved.", token.EnvVar)
		}
	}
	if cfg != nil && len(cfg.Profiles) > 0 {
		v.Foot += fmt.Sprintf("\nDeclared in %s (which wins over `vaultdeck config`): %s.", cfg.Path, strings.Join(declared(cfg), ", "))
	}
	show := o.Show
	if show == nil {
		show = func(v printer.Value) error {
			if err := v.Text(env.Stdout); err != nil {
				return err
			}
			_, err := fmt.Fprintln(env.Stdout, v.Foot)
			return err
		}
	}
	if err := show(v); err != nil {
		return printer.ExitError // the printer said which stream failed
	}
	if selErr != nil {
		fmt.Fprintln(env.Stderr, sentence(selErr))
		return printer.ExitError
	}
	return printer.ExitOK
}

// profileRecord is one profile in --json: where it connects, its access,
// where its token is kept (never the token).
type profileRecord struct {
	Name     string `json:"name"`
	Endpoint string `json:"endpoint"`
	Region   string `json:"region,omitempty"`
	BaseURL  string `json:"base_url,omitempty"`
	CAFile   string `json:"ca_file,omitempty"`
	// The workspace whoami placed the token in at login (empty: logged
	// in before vaultdeck remembered it).
	WorkspaceID   string `json:"workspace_id,omitempty"`
	WorkspaceName string `json:"workspace_name,omitempty"`
	ReadOnly      bool   `json:"read_only"`
	TokenStorage  string `json:"token_storage"`
	Default       bool   `json:"default"`
	Active        bool   `json:"active"`
	// DeclaredIn is where the configuration file declares it
	// ("PATH:LINE"); empty when only the store keeps it.
	DeclaredIn string `json:"declared_in,omitempty"`
}

// profilesValue is the profiles as the printer shows them: records for
// JSON, rows for CSV, the aligned table (the active one marked) for a
// person.
func profilesValue(all []store.Profile, cfg *account.ConfigFile, isActive func(store.Profile) bool) printer.Value {
	recs := make([]profileRecord, 0, len(all))
	rows := make([][]string, 0, len(all))
	for _, p := range all {
		access := "read-write"
		if p.ReadOnly {
			access = "read-only"
		}
		r := profileRecord{Name: p.Name, Endpoint: p.Endpoint(), Region: p.Region, BaseURL: p.BaseURL, CAFile: p.CAFile,
			WorkspaceID: p.WorkspaceID, WorkspaceName: p.WorkspaceName,
			ReadOnly: p.ReadOnly, TokenStorage: cmp.Or(p.TokenStorage, store.StorageNone), Default: p.IsDefault, Active: isActive(p)}
		if fp := cfg.Profile(p.Name); fp != nil {
			r.DeclaredIn = cfg.At(fp.Line)
		}
		recs = append(recs, r)
		ws := "-" // logged in before vaultdeck remembered it: not checked
		if p.WorkspaceID != "" {
			ws = sanitize.Line(cmp.Or(p.WorkspaceName, p.WorkspaceID))
		}
		rows = append(rows, []string{r.Name, r.Endpoint, ws, access, storageLabel(p.TokenStorage), yes(r.Default), yes(r.Active)})
	}
	v := printer.Value{JSON: recs, Headers: []string{"NAME", "ENDPOINT", "WORKSPACE", "ACCESS", "TOKEN", "DEFAULT", "ACTIVE"}, Rows: rows}
	v.Text = func(w io.Writer) error {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "  NAME\tENDPOINT\tWORKSPACE\tACCESS\tTOKEN\tDEFAULT")
		for _, r := range rows {
			mark := " "
			if r[6] == "yes" {
				mark = "*"
			}
			fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\t%s\t%s\n", mark, r[0], r[1], r[2], r[3], r[4], r[5])
		}
		return tw.Flush() // the printer writes the Foot under it
	}
	return v
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return ""
}

func storageLabel(s string) string {
	switch s {
	case store.StorageKeyring:
		return "keyring"
	case store.StorageFile:
		return "file (insecure)"
	}
	return "none (vaultdeck login)"
}

func declared(cfg *account.ConfigFile) []string {
	out := make([]string, 0, len(cfg.Profiles))
	for _, fp := range cfg.Profiles {
		out = append(out, fp.Name)
	}
	return out
}
