package accountcmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// verifyTimeout bounds the whoami check; the API client has its own retries
// inside it.
const verifyTimeout = 30 * time.Second

// maxStdinToken bounds what is read from a pipe.
const maxStdinToken = 16 << 10

// LoginOptions are login's flags, parsed by the command line; Given says
// which were typed (a typed flag overrides the profile's stored value, even
// with an empty one).
type LoginOptions struct {
	// Flags name the profile and where it points (--profile, --region,
	// --base-url, --ca-file); the rest of them is not login's.
	account.Flags
	// ReadOnly is login's --read-only: store the profile read-only.
	ReadOnly, Insecure bool
	Given              func(name string) bool
	IO                 Streams
}

// RunLogin is `vaultdeck login` with its flags parsed.
func RunLogin(ctx context.Context, o LoginOptions, env Env) int {
	env = env.on(o.IO)
	if o.Given == nil {
		o.Given = func(string) bool { return false }
	}
	region, baseURL, caFile, readOnly, insecure, profile := &o.Region, &o.BaseURL, &o.CAFile, &o.ReadOnly, &o.Insecure, &o.Profile
	if *region != "" && *baseURL != "" {
		fmt.Fprintln(env.Stderr, "Give --region or --base-url, not both.")
		return printer.ExitUsage
	}
	if env.Verify == nil {
		fmt.Fprintln(env.Stderr, "vaultdeck login cannot check tokens in this build (no verifier is wired); nothing was saved.")
		return printer.ExitError
	}

	st, err := env.Account().OpenStore()
	if err != nil {
		fmt.Fprintf(env.Stderr, "The local database could not be opened: %v\n", err)
		return printer.ExitError
	}
	defer st.Close()

	p, err := account.LoginProfile(env.Account(), st, *profile)
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}
	// A value the configuration file sets is the file's: a flag that
	// would change it is refused rather than stored and never used.
	for flag, key := range map[string]string{"region": account.FileKeyRegion, "base-url": account.FileKeyBaseURL, "ca-file": account.FileKeyCAFile, "read-only": account.KeyReadOnly} {
		if !o.Given(flag) {
			continue
		}
		at, owned, _ := account.ConfigOwner(env.Account(), p.Name, key)
		if !owned && (flag == "region" || flag == "base-url") {
			other := map[string]string{"region": account.FileKeyBaseURL, "base-url": account.FileKeyRegion}[flag]
			at, owned, _ = account.ConfigOwner(env.Account(), p.Name, other)
		}
		if owned {
			fmt.Fprintf(env.Stderr, "Profile %q's endpoint and access are set by the configuration file at %s, which owns them: drop --%s, or change it there. Nothing was saved.\n", p.Name, at, flag)
			return printer.ExitUsage
		}
	}
	if o.Given("region") {
		p.Region, p.BaseURL = *region, ""
	}
	if o.Given("base-url") {
		p.Region, p.BaseURL = "", strings.TrimRight(*baseURL, "/")
	}
	if o.Given("ca-file") {
		if p.CAFile, err = account.CheckCAFile(*caFile); err != nil {
			fmt.Fprintln(env.Stderr, sentence(err))
			return printer.ExitUsage
		}
	}
	if o.Given("read-only") {
		p.ReadOnly = *readOnly
	}
	if p.Region == "" && p.BaseURL == "" {
		p.Region = "us"
	}
	if err := account.CheckProfile(p); err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitUsage
	}

	tok, err := readToken(env, p.Name)
	if err != nil {
		fmt.Fprintf(env.Stderr, "No token was read: %v. Nothing was saved.\n", err)
		return printer.ExitError
	}

	vctx, cancel := context.WithTimeout(ctx, verifyTimeout)
	v, err := env.Verify(vctx, p, tok)
	who := v.Who
	cancel()
	if err != nil {
		// which failure: only a 401 or 403 is the token's (api.CheckFailure)
		fmt.Fprintf(env.Stderr, "%s (%s): %s. Nothing was saved; run vaultdeck login again once that is fixed.\n",
			api.CheckFailure(err), p.Endpoint(), sanitize.Line(strings.ReplaceAll(err.Error(), tok, "[redacted]")))
		return printer.ExitError
	}

	kind, storage := token.KindKeyring, store.StorageKeyring
	if *insecure {
		kind, storage = token.KindFile, store.StorageFile
	}
	src, err := account.TokenSource(env.Account(), p)
	if err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}
	saved, err := src.Save(ctx, kind, tok)
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s. Nothing was saved.\n", capitalise(err.Error()))
		return printer.ExitError
	}
	p.TokenStorage = storage
	p.WorkspaceID, p.WorkspaceName = v.WorkspaceID, v.WorkspaceName
	if err := st.SaveProfile(p); err != nil {
		fmt.Fprintf(env.Stderr, "The token was saved in %s, but the profile could not be: %v\n", kind.Describe(), err)
		return printer.ExitError
	}
	if p, err = st.Profile(p.Name); err != nil {
		fmt.Fprintln(env.Stderr, sentence(err))
		return printer.ExitError
	}

	fmt.Fprintf(env.Stdout, "Logged in as %s with profile %q (%s%s). The token is in %s.\n",
		sanitize.Line(who), p.Name, p.Endpoint(), map[bool]string{true: ", read-only"}[p.ReadOnly], kind.Describe())
	if p.IsDefault {
		fmt.Fprintf(env.Stdout, "%q is the default profile.\n", p.Name)
	}
	if saved.Source == token.KindFile {
		fmt.Fprintf(env.Stderr, "Warning: the token is stored in plain text at %s (readable only by you, but by any program you run). Run `vaultdeck login --profile %s` without --insecure-storage once a keyring works.\n",
			saved.File, p.Name)
	}
	if env.getenv(token.EnvVar) != "" {
		fmt.Fprintf(env.Stderr, "Note: %s is set in this shell and takes precedence over the saved token until you unset it.\n", token.EnvVar)
	}
	fmt.Fprintln(env.Stdout, "Next: run `vaultdeck` to open the console, or `vaultdeck profiles` to list profiles.")
	return printer.ExitOK
}

// readToken reads the token from a hidden prompt on a terminal, else from
// standard input (a pipe or a file).
func readToken(env Env, profile string) (string, error) {
	var tok string
	if env.stdinIsTerminal() {
		fmt.Fprintf(env.Stderr, "Paste the API token for profile %q (input is hidden) and press Enter: ", profile)
		b, err := env.readPassword()
		fmt.Fprintln(env.Stderr)
		if err != nil {
			return "", fmt.Errorf("the terminal could not be read: %w", err)
		}
		tok = strings.TrimSpace(string(b))
	} else {
		if env.Stdin == nil {
			return "", errors.New("there is no standard input to read the token from")
		}
		b, err := io.ReadAll(io.LimitReader(env.Stdin, maxStdinToken+1))
		if err != nil {
			return "", fmt.Errorf("standard input could not be read: %w", err)
		}
		if len(b) > maxStdinToken {
			return "", errors.New("standard input is too long to be a token; pipe only the token")
		}
		var lines []string
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) > 1 {
			return "", errors.New("standard input holds more than one line; pipe only the token")
		}
		if len(lines) == 1 {
			tok = lines[0]
		}
	}
	if tok == "" {
		return "", errors.New("the token is empty")
	}
	return tok, token.ValidateToken(tok)
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sentence turns an error into a line for the terminal.
func sentence(err error) string {
	s := capitalise(err.Error())
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
