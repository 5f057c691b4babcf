package accountcmd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
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
		if err := st.SetDefault(*setDefault); err != nil {
			fmt.Fprintln(env.Stderr, sentence(err))
			return printer.ExitError
		}
		fmt.Fprintf(env.Stdout, "%q is now the default profile.\n", *setDefault)
	}
	all, err := st.Profiles()
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}
	if len(all) == 0 {
		fmt.Fprintln(env.Stdout, "No profiles yet. Run `vaultdeck login` to create one.")
		return printer.ExitOK
	}
	active, by, selErr := account.Select(env.Account(), st, *profile)

	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "  NAME\tENDPOINT\tWORKSPACE\tACCESS\tTOKEN\tDEFAULT")
	for _, p := range all {
		mark := " "
		if selErr == nil && p.Name == active.Name {
			mark = "*"
		}
		access := "read-write"
		if p.ReadOnly {
			access = "read-only"
		}
		def := ""
		if p.IsDefault {
			def = "yes"
		}
		ws := "-" // logged in before vaultdeck remembered it: not checked
		if p.WorkspaceID != "" {
			ws = sanitize.Line(cmp.Or(p.WorkspaceName, p.WorkspaceID))
		}
		fmt.Fprintf(w, "%s %s\t%s\t%s\t%s\t%s\t%s\n", mark, p.Name, p.Endpoint(), ws, access, storageLabel(p.TokenStorage), def)
	}
	w.Flush()
	if selErr != nil {
		fmt.Fprintln(env.Stderr, sentence(selErr))
		return printer.ExitError
	}
	fmt.Fprintf(env.Stdout, "\n* active profile (chosen by %s). Pick another with --profile NAME or %s; change the default with `vaultdeck profiles --set-default NAME`.\n", by, account.ProfileEnvVar)
	if env.getenv(token.EnvVar) != "" {
		fmt.Fprintf(env.Stdout, "%s is set, so it supplies the token whatever is saved.\n", token.EnvVar)
	}
	return printer.ExitOK
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
