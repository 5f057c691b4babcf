package account

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/store"
)

// LoginProfile is the profile login works on: the named (or selected) one
// if it exists, keeping its settings, else a new one.
func LoginProfile(e Env, st *store.Store, flag string) (store.Profile, error) {
	cfg, err := ReadConfigFile(e)
	if err != nil {
		return store.Profile{}, err
	}
	name := flag
	if name == "" {
		name = e.getenv(ProfileEnvVar)
	}
	if name == "" {
		def, err := defaultProfile(st, cfg)
		switch {
		case err == nil:
			return def, nil
		case !errors.Is(err, store.ErrNotFound):
			return store.Profile{}, err
		}
		name = "default"
	}
	if err := store.ValidateProfileName(name); err != nil {
		return store.Profile{}, err
	}
	p, err := lookupProfile(st, cfg, name)
	if errors.Is(err, store.ErrNotFound) {
		return store.Profile{Name: name}, nil
	}
	return p, err
}

// ConfigOwner says where the configuration file sets key of profile
// ("PATH:LINE"), so login and `config set` leave that value to the file.
func ConfigOwner(e Env, profile, key string) (string, bool, error) {
	cfg, err := ReadConfigFile(e)
	if err != nil || cfg == nil {
		return "", false, err
	}
	at, ok := cfg.Owns(profile, key)
	return at, ok, nil
}

// CheckProfile adds login's own rule to the store's validation: the spec
// requires HTTPS, with plain HTTP allowed only to this machine (the
// simulator).
func CheckProfile(p store.Profile) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if p.BaseURL == "" {
		return nil
	}
	u, _ := url.Parse(p.BaseURL)
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("the base URL must be a plain address such as https://api.example.com, without credentials, query or fragment")
	}
	if u.Scheme == "http" && !loopbackHost(u.Hostname()) {
		return fmt.Errorf("the base URL %s uses plain HTTP; the API requires HTTPS (plain HTTP is allowed only to localhost, for the simulator)", p.BaseURL)
	}
	return nil
}

// CheckCAFile returns the absolute path of a PEM bundle, checked to hold a
// certificate, so a profile never stores a path that fails later.
func CheckCAFile(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("the CA file %q cannot be located: %w", path, err)
	}
	b, err := localfile.Read(abs, localfile.CABundle)
	if err != nil {
		return "", fmt.Errorf("the CA file cannot be read: %w", err)
	}
	if !bytes.Contains(b, []byte("-----BEGIN CERTIFICATE-----")) {
		return "", fmt.Errorf("the CA file %s holds no PEM certificate", abs)
	}
	return abs, nil
}
