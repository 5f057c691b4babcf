package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/vaultdeck/vaultdeck/api"
)

// Values are checked here, before any request, so a malformed ID is a usage
// error (exit 2, naming the value) rather than a "not found" from the
// service or a request the vault budget pays for.

// isUUID is api.IsUUID: one ID check for the command line and the console.
func isUUID(s string) bool { return api.IsUUID(s) }

// errUsage marks an error as the command line's fault (exit 2).
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func usagef(format string, a ...any) error { return errUsage{fmt.Sprintf(format, a...)} }

// checkUUID refuses v unless it is a UUID; what names it ("project ID").
func checkUUID(what, v string) error {
	if !isUUID(v) {
		return usagef("%q is not a %s (a UUID like 123e4567-e89b-12d3-a456-426614174000)", v, what)
	}
	return nil
}

// positiveDuration is a duration flag that refuses zero and negative
// values while parsing, so the message quotes what was typed ("-5m").
type positiveDuration struct{ d *time.Duration }

func (p positiveDuration) String() string {
	if p.d == nil {
		return ""
	}
	return p.d.String()
}

func (p positiveDuration) Type() string { return "duration" }

func (p positiveDuration) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return errors.New("not a duration such as 30m")
	}
	if d <= 0 {
		return errors.New("it must be more than zero")
	}
	*p.d = d
	return nil
}

// durationFlag defines a positive duration flag with a default.
func durationFlag(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fs.Var(positiveDuration{p}, name, usage)
}

// settingFlag is durationFlag for a flag a profile setting stands behind
// (`vaultdeck config`): its help names the setting before the default,
// since an untyped flag means the setting, not the default.
func settingFlag(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	durationFlag(fs, p, name, def, fmt.Sprintf("%s (default: the profile's %s setting, else %s)", usage, name, shortDuration(def)))
	fs.Lookup(name).DefValue = "" // the sentence above says it; pflag would add "(default 30m0s)"
}

// oneLineUsage prints a usage error as one line naming what was wrong and
// where help is, and returns ExitUsage. cmd "" is the console itself.
func oneLineUsage(w io.Writer, cmd string, err error) int {
	prefix, help := "vaultdeck", "vaultdeck help"
	if cmd != "" && cmd != "console" {
		prefix, help = "vaultdeck "+cmd, "vaultdeck help "+cmd
	}
	fmt.Fprintf(w, "%s: %s (see `%s`)\n", prefix, oneLine(err.Error()), help)
	return ExitUsage
}
