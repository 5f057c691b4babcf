package account

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// Per-profile defaults kept in the store (`vaultdeck config`); a flag given
// on the command line, or the environment, always wins over them.
const (
	KeyTheme      = "theme"
	KeyStuckAfter = "stuck-after"
	KeyReadOnly   = "read-only" // the profile's read_only column
	KeyTimeout    = "timeout"   // how long the service may stay silent
	KeyMaxRate    = "max-rate"  // vaultdeck's cap below the service's limits (maxrate.go)
	// KeyExcel makes the console's e write Excel's CSV dialect (a BOM,
	// CRLF), as the command line's --excel does.
	KeyExcel = "excel"
)

// Keys are the settings, in the order `config get` lists them.
func Keys() []string {
	return []string{KeyTheme, KeyStuckAfter, KeyReadOnly, KeyTimeout, KeyMaxRate, KeyExcel}
}

// Default is what applies when key was never set.
func Default(key string) string {
	switch key {
	case KeyTheme:
		return "auto"
	case KeyStuckAfter:
		return "30m0s"
	case KeyReadOnly, KeyExcel:
		return "false"
	case KeyTimeout:
		return "30s"
	case KeyMaxRate:
		return "100%"
	}
	return ""
}

// Normalize checks a value for key and returns its stored form. themes are
// the theme names the console knows (account does not draw them).
func Normalize(key, value string, themes []string) (string, error) {
	value = strings.TrimSpace(value)
	switch key {
	case KeyTheme:
		if !slices.Contains(themes, value) {
			return "", fmt.Errorf("there is no theme %q; choose one of %s", value, strings.Join(themes, ", "))
		}
		return value, nil
	case KeyStuckAfter, KeyTimeout:
		d, err := ParsePositiveDuration(value)
		if err != nil {
			return "", fmt.Errorf("%s takes a positive duration such as 30m (got %q: %v)", key, value, err)
		}
		return d.String(), nil
	case KeyMaxRate:
		m, err := ParseMaxRate(value)
		if err != nil {
			return "", err
		}
		return m.String(), nil
	case KeyReadOnly, KeyExcel:
		switch strings.ToLower(value) {
		case "true", "yes", "on", "1":
			return "true", nil
		case "false", "no", "off", "0":
			return "false", nil
		}
		return "", fmt.Errorf("%s takes true or false (got %q)", key, value)
	}
	return "", fmt.Errorf("there is no setting %q; the settings are %s", key, strings.Join(Keys(), ", "))
}

// ParsePositiveDuration reads a duration above zero (a flag's or a
// setting's).
func ParsePositiveDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, errors.New("not a duration such as 30m")
	}
	if d <= 0 {
		return 0, errors.New("it must be more than zero")
	}
	return d, nil
}

// Settings are a profile's stored settings, typed. A zero field is unset;
// a stored value that does not parse (edited by hand) counts as unset.
type Settings struct {
	Theme      string
	StuckAfter time.Duration
	ReadOnly   bool
	Timeout    time.Duration
	MaxRate    MaxRate
	// Excel: the console's e writes Excel's dialect (KeyExcel).
	Excel bool
	// ThemeAt is where the configuration file sets Theme ("PATH:LINE"),
	// so a theme the console does not know is refused there, not ignored.
	ThemeAt string
}

// ParseSettings types the store's key-to-value map of one profile;
// readOnly is the profile's own column.
func ParseSettings(m map[string]string, readOnly bool) Settings {
	dur := func(k string) time.Duration {
		d, err := time.ParseDuration(m[k])
		if err != nil || d <= 0 {
			return 0
		}
		return d
	}
	mr, _ := ParseMaxRate(m[KeyMaxRate])
	return Settings{Theme: m[KeyTheme], StuckAfter: dur(KeyStuckAfter), ReadOnly: readOnly, Timeout: dur(KeyTimeout), MaxRate: mr,
		Excel: m[KeyExcel] == "true"}
}

// SetSetting stores one checked value (Normalize's) of a profile; "" goes
// back to the default. read-only is the profile's column, not a setting.
func SetSetting(st *store.Store, profile, key, value string) error {
	if key == KeyReadOnly {
		return st.SetReadOnly(profile, value == "true")
	}
	return st.SetSetting(profile, key, value)
}

// StoredSettings are a profile's settings as stored, read-only included
// (false unless set), for `config get`.
func StoredSettings(st *store.Store, p store.Profile) (map[string]string, error) {
	m, err := st.Settings(p.Name)
	if err != nil {
		return nil, err
	}
	m[KeyReadOnly] = strconv.FormatBool(p.ReadOnly)
	return m, nil
}

// ConfigProfile is the profile `config` acts on: the flag, else the
// default one, as the configuration file and the store make it, with the
// file (nil: none).
func ConfigProfile(e Env, st *store.Store, flag string) (store.Profile, *ConfigFile, error) {
	cfg, err := ReadConfigFile(e)
	if err != nil {
		return store.Profile{}, nil, err
	}
	if flag != "" {
		p, err := lookupProfile(st, cfg, flag)
		return p, cfg, err
	}
	p, err := defaultProfile(st, cfg)
	return p, cfg, configProfileErr(err)
}

// EffectiveSettings are a profile's settings as a command uses them (the
// file's over the store's), read-only included, and where the file sets
// each it sets ("PATH:LINE"), for `config get`.
func EffectiveSettings(st *store.Store, cfg *ConfigFile, p store.Profile) (map[string]string, map[string]string, error) {
	m, err := StoredSettings(st, p)
	if err != nil {
		return nil, nil, err
	}
	at := map[string]string{}
	if fp := cfg.Profile(p.Name); fp != nil {
		m = fp.settings(m)
		for _, k := range Keys() {
			if l, ok := fp.Lines[k]; ok {
				at[k] = cfg.At(l)
				m[k] = fp.Values[k]
			}
		}
	}
	return m, at, nil
}

func configProfileErr(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errors.New("there is no profile yet; settings belong to one (vaultdeck login --profile NAME)")
	}
	return err
}
