package account

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"text/tabwriter"

	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
)

// parseNoArgs parses flags for a command that takes no positional arguments.
func parseNoArgs(fs *flag.FlagSet, args []string, env Env) (int, bool) {
	fs.SetOutput(env.Stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK, false
		}
		return ExitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "vaultdeck %s takes no arguments (got %q); see vaultdeck %s --help.\n", fs.Name(), fs.Arg(0), fs.Name())
		return ExitUsage, false
	}
	return 0, true
}

// Logout implements `vaultdeck logout`: it deletes the profile's token from
// the keyring and any token file, and with --forget the profile itself.
func Logout(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("logout", flag.ContinueOnError)
	profile := fs.String("profile", "", "profile `name` (default: $VAULTDECK_PROFILE or the default profile)")
	forget := fs.Bool("forget", false, "also delete the profile with its bookmarks and cached data")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	return LogoutWith(ctx, LogoutOptions{Profile: *profile, Forget: *forget}, env)
}

// LogoutOptions are logout's flags.
type LogoutOptions struct {
	Profile string
	Forget  bool
}

// LogoutWith is `vaultdeck logout` with its flags parsed.
func LogoutWith(ctx context.Context, o LogoutOptions, env Env) int {
	profile, forget := &o.Profile, &o.Forget
	st, err := OpenStore(env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "The local database could not be opened: %v\n", err)
		return ExitError
	}
	defer st.Close()

	p, by, err := SelectProfile(env, st, *profile)
	if err == nil && by == ChosenByToken {
		err = errors.New("no profile exists, so there is nothing to log out of; the token comes from VAULTDECK_TOKEN, which only your shell can unset")
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return ExitError
	}
	src, err := NewSource(env, p)
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return ExitError
	}
	rm, err := src.Remove(ctx)
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return ExitError
	}
	// A keyring we cannot reach only matters if the token was put there.
	if rm.KeyringErr != nil && p.TokenStorage != store.StorageFile {
		fmt.Fprintf(env.Stderr, "The token for profile %q could not be removed: %v. Unlock the keyring and run `vaultdeck logout --profile %s` again, or delete the entry (service %q, account %q) with your keyring manager.\n",
			p.Name, rm.KeyringErr, p.Name, token.Service, p.Name)
		return ExitError
	}
	if *forget {
		if err := st.DeleteProfile(p.Name); err != nil {
			fmt.Fprintln(env.Stderr, sentence(err))
			return ExitError
		}
	} else if err := st.SetTokenStorage(p.Name, store.StorageNone); err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return ExitError
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
		fmt.Fprintf(env.Stdout, "The profile, its bookmarks and its cached data were deleted.\n")
	} else {
		fmt.Fprintf(env.Stdout, "The profile's settings are kept; run `vaultdeck login --profile %s` to log in again, or `vaultdeck logout --profile %s --forget` to delete it.\n", p.Name, p.Name)
	}
	if env.getenv(token.EnvVar) != "" {
		fmt.Fprintf(env.Stderr, "Note: %s is still set in this shell and still supplies a token; unset it too.\n", token.EnvVar)
	}
	return ExitOK
}

// Profiles implements `vaultdeck profiles`: it lists profiles, marks the
// active one, and with --set-default changes the default.
func Profiles(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("profiles", flag.ContinueOnError)
	profile := fs.String("profile", "", "treat this profile as the active one")
	setDefault := fs.String("set-default", "", "make profile `name` the default")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	return ProfilesWith(ctx, ProfilesOptions{Profile: *profile, SetDefault: *setDefault}, env)
}

// ProfilesOptions are the profiles command's flags.
type ProfilesOptions struct {
	Profile    string // treat this profile as the active one
	SetDefault string
}

// ProfilesWith is `vaultdeck profiles` with its flags parsed.
func ProfilesWith(ctx context.Context, o ProfilesOptions, env Env) int {
	profile, setDefault := &o.Profile, &o.SetDefault
	st, err := OpenStore(env)
	if err != nil {
		fmt.Fprintf(env.Stderr, "The local database could not be opened: %v\n", err)
		return ExitError
	}
	defer st.Close()

	if *setDefault != "" {
		if err := st.SetDefault(*setDefault); err != nil {
			fmt.Fprintln(env.Stderr, sentence(err))
			return ExitError
		}
		fmt.Fprintf(env.Stdout, "%q is now the default profile.\n", *setDefault)
	}
	all, err := st.Profiles()
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return ExitError
	}
	if len(all) == 0 {
		fmt.Fprintln(env.Stdout, "No profiles yet. Run `vaultdeck login` to create one.")
		return ExitOK
	}
	active, by, selErr := SelectProfile(env, st, *profile)

	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "  NAME\tENDPOINT\tACCESS\tTOKEN\tDEFAULT")
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
		fmt.Fprintf(w, "%s %s\t%s\t%s\t%s\t%s\n", mark, p.Name, p.Endpoint(), access, storageLabel(p.TokenStorage), def)
	}
	w.Flush()
	if selErr != nil {
		fmt.Fprintln(env.Stderr, sentence(selErr))
		return ExitError
	}
	fmt.Fprintf(env.Stdout, "\n* active profile (chosen by %s). Pick another with --profile NAME or %s; change the default with `vaultdeck profiles --set-default NAME`.\n", by, ProfileEnvVar)
	if env.getenv(token.EnvVar) != "" {
		fmt.Fprintf(env.Stdout, "%s is set, so it supplies the token whatever is saved.\n", token.EnvVar)
	}
	return ExitOK
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
