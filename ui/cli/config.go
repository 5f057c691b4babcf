package cli

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/themes"
)

// Per-profile defaults kept in the store (`vaultdeck config`); a flag given
// on the command line always wins over them.
const (
	settingTheme      = "theme"
	settingStuckAfter = "stuck-after"
	settingReadOnly   = "read-only" // the profile's read_only column
	settingTimeout    = "timeout"   // the client's first-byte timeout
	settingMaxRate    = "max-rate"  // vaultdeck's cap below the service's limits (maxrate.go)
)

func settingKeys() []string {
	return []string{settingTheme, settingStuckAfter, settingReadOnly, settingTimeout, settingMaxRate}
}

// settingDefaults are what applies when a key was never set.
var settingDefaults = map[string]string{
	settingTheme: "auto", settingStuckAfter: "30m0s", settingReadOnly: "false", settingTimeout: "30s",
	settingMaxRate: "100%",
}

// normalizeSetting checks a value for key and returns its stored form.
func normalizeSetting(key, value string) (string, error) {
	value = strings.TrimSpace(value)
	switch key {
	case settingTheme:
		if !slices.Contains(themes.Names(), value) {
			return "", usagef("there is no theme %q; choose one of %s", value, strings.Join(themes.Names(), ", "))
		}
		return value, nil
	case settingStuckAfter, settingTimeout:
		var d time.Duration
		if err := (positiveDuration{&d}).Set(value); err != nil {
			return "", usagef("%s takes a positive duration such as 30m (got %q: %v)", key, value, err)
		}
		return d.String(), nil
	case settingMaxRate:
		m, err := parseMaxRate(value)
		if err != nil {
			return "", usagef("%v", err)
		}
		return m.String(), nil
	case settingReadOnly:
		switch strings.ToLower(value) {
		case "true", "yes", "on", "1":
			return "true", nil
		case "false", "no", "off", "0":
			return "false", nil
		}
		return "", usagef("read-only takes true or false (got %q)", value)
	}
	return "", usagef("there is no setting %q; the settings are %s", key, strings.Join(settingKeys(), ", "))
}

// parseSettingDuration reads a stored duration setting; a value that does
// not parse (edited by hand) counts as unset.
func parseSettingDuration(settings map[string]string, key string) time.Duration {
	d, err := time.ParseDuration(settings[key])
	if err != nil || d <= 0 {
		return 0
	}
	return d
}

// parseSettingMaxRate reads the stored max-rate; a value that does not parse
// (edited by hand) counts as unset.
func parseSettingMaxRate(settings map[string]string) maxRate {
	m, _ := parseMaxRate(settings[settingMaxRate])
	return m
}

// config runs `config get|set|unset` with its words checked by cobra.
func (r *runner) config(verb string, rest []string) int {
	value := ""
	if len(rest) > 0 && !slices.Contains(settingKeys(), rest[0]) {
		_, err := normalizeSetting(rest[0], "")
		return oneLineUsage(r.env.Stderr, r.cmd, err)
	}
	if verb == "set" {
		v, err := normalizeSetting(rest[0], rest[1])
		if err != nil {
			return oneLineUsage(r.env.Stderr, r.cmd, err)
		}
		value = v
	}
	st, err := r.openStore()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	prof, err := r.configProfile(st)
	if err != nil {
		return r.fail(err)
	}
	switch verb {
	case "set", "unset":
		if rest[0] == settingReadOnly {
			err = st.SetReadOnly(prof.Name, value == "true")
		} else {
			err = st.SetSetting(prof.Name, rest[0], value)
		}
		if err != nil {
			return r.fail(err)
		}
		return ExitOK
	}
	settings, err := st.Settings(prof.Name)
	if err != nil {
		return r.fail(err)
	}
	settings[settingReadOnly] = strconv.FormatBool(prof.ReadOnly)
	if len(rest) == 1 {
		fmt.Fprintln(r.env.Stdout, cmpOr(settings[rest[0]], settingDefaults[rest[0]]))
		return ExitOK
	}
	if r.jsonOut() {
		return r.emitJSON(settings)
	}
	for _, k := range settingKeys() {
		v, set := settings[k]
		if !set || (k == settingReadOnly && !prof.ReadOnly) {
			v = settingDefaults[k] + " (default)"
		}
		fmt.Fprintf(r.env.Stdout, "%-12s %s\n", k, v)
	}
	return ExitOK
}

// configProfile is the profile `config` acts on: --profile, else the
// default one.
func (r *runner) configProfile(st *store.Store) (store.Profile, error) {
	if r.g.Profile != "" {
		return st.Profile(r.g.Profile)
	}
	p, err := st.DefaultProfile()
	if errors.Is(err, store.ErrNotFound) {
		return p, errors.New("there is no profile yet; settings belong to one (vaultdeck login --profile NAME)")
	}
	return p, err
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
