package cmdutil

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Enum is a string flag that takes one of a fixed set, checked while
// parsing: a wrong value is exit 2 before anything is requested.
type Enum struct {
	p       *string
	allowed []string
	list    bool // comma-separated, any case (file statuses)
}

// EnumFlag is an Enum setting p.
func EnumFlag(p *string, allowed []string) *Enum { return &Enum{p: p, allowed: allowed} }

// EnumList is an Enum of a comma-separated list, in any case.
func EnumList(p *string, allowed []string) *Enum { return &Enum{p: p, allowed: allowed, list: true} }

func (e *Enum) String() string { return *e.p }
func (e *Enum) Type() string   { return "string" }
func (e *Enum) Set(s string) error {
	vals := []string{s}
	if e.list {
		vals = SplitList(strings.ToLower(s))
	}
	for _, v := range vals {
		ok := false
		for _, a := range e.allowed {
			ok = ok || a == v
		}
		if !ok {
			return fmt.Errorf("choose from %s", strings.Join(e.allowed, ", "))
		}
	}
	*e.p = s
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

// DurationFlag defines a positive duration flag with a default.
func DurationFlag(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fs.Var(positiveDuration{p}, name, usage)
}

// SettingFlag is DurationFlag for a flag a profile setting stands behind
// (`vaultdeck config`): its help names the setting before the default,
// since an untyped flag means the setting, not the default.
func SettingFlag(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	DurationFlag(fs, p, name, def, fmt.Sprintf("%s (default: the profile's %s setting, else %s)", usage, name, ShortDuration(def)))
	fs.Lookup(name).DefValue = "" // the sentence above says it; pflag would add "(default 30m0s)"
}

// ShortDuration is d as a person types it: 1m, 1h30m, 45s (not 1m0s).
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
