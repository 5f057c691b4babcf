package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

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
func durationFlag(fs *flag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fs.Var(positiveDuration{p}, name, usage)
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

// parseError turns the flag package's messages into one form: "unknown
// flag --x", "invalid value "v" for --x", "--x needs a value".
func parseError(err error) error {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "flag provided but not defined: "):
		name := strings.TrimLeft(strings.TrimPrefix(msg, "flag provided but not defined: "), "-")
		return usagef("unknown flag --%s", name)
	case strings.HasPrefix(msg, "flag needs an argument: "):
		name := strings.TrimLeft(strings.TrimPrefix(msg, "flag needs an argument: "), "-")
		return usagef("--%s needs a value", name)
	case strings.HasPrefix(msg, "invalid value "), strings.HasPrefix(msg, "invalid boolean value "):
		// invalid value "x" for flag -limit: parse error
		rest := msg[strings.Index(msg, `"`):]
		val, after, _ := strings.Cut(rest[1:], `" for flag -`)
		name, why, _ := strings.Cut(after, ": ")
		if why == "parse error" {
			why = ""
		}
		if why != "" {
			why = " (" + why + ")"
		}
		return usagef("invalid value %q for --%s%s", val, name, why)
	case strings.HasPrefix(msg, "bad flag syntax: "):
		return usagef("bad flag syntax %q", strings.TrimPrefix(msg, "bad flag syntax: "))
	}
	return usagef("%s", msg)
}

// parseQuietly parses fs without the flag package printing anything:
// -h prints the usage on stdout and ends the command with 0; any error is
// one line on stderr, exit 2.
func parseQuietly(fs *flag.FlagSet, args []string, stdout, stderr io.Writer, cmd string) (int, bool) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return ExitOK, false
	}
	if err != nil {
		return oneLineUsage(stderr, cmd, parseError(err)), false
	}
	return 0, true
}
