package account

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/vaultdeck/vaultdeck/store"
)

// The one precedence, highest first: a flag, the environment, the
// configuration file, the store (what login and `config set` kept), the
// default. The file is what configuration management declares, so it wins
// over the store; `config set` refuses a value the file sets, so the two
// never disagree unseen.

// apply is the profile the file declares over what the store keeps of it
// (zero when the store has none): the file's values win.
func (fp *FileProfile) apply(p store.Profile) store.Profile {
	p.Name = fp.Name
	v := fp.Values
	if r, ok := v[FileKeyRegion]; ok {
		p.Region, p.BaseURL = r, ""
	}
	if u, ok := v[FileKeyBaseURL]; ok {
		p.Region, p.BaseURL = "", u
	}
	if p.Region == "" && p.BaseURL == "" {
		p.Region = "us"
	}
	if c, ok := v[FileKeyCAFile]; ok {
		p.CAFile = c
	}
	if s, ok := v[FileKeyTokenStorage]; ok {
		p.TokenStorage = s
	}
	if w, ok := v[FileKeyWorkspaceID]; ok && w != p.WorkspaceID {
		p.WorkspaceID, p.WorkspaceName = w, ""
	}
	if r, ok := v[KeyReadOnly]; ok {
		p.ReadOnly = r == "true"
	}
	return p
}

// settings are the file's settings over the store's map.
func (fp *FileProfile) settings(stored map[string]string) map[string]string {
	m := make(map[string]string, len(stored)+len(fp.Values))
	for k, v := range stored {
		m[k] = v
	}
	for _, k := range Keys() {
		if v, ok := fp.Values[k]; ok {
			m[k] = v
		}
	}
	return m
}

// lookupProfile is the profile name as the file and the store make it:
// the file's declaration over the stored row, either alone.
func lookupProfile(st *store.Store, cfg *ConfigFile, name string) (store.Profile, error) {
	p, err := st.Profile(name)
	fp := cfg.Profile(name)
	switch {
	case fp == nil:
		return p, err
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return p, err
	}
	def, err := defaultName(st, cfg)
	if err != nil {
		return store.Profile{}, err
	}
	p = fp.apply(p)
	p.IsDefault = def == name
	return p, nil
}

// defaultName is the default profile's name: the file's default, else the
// store's, else the only profile the file declares when the store has
// none; "" when there is none.
func defaultName(st *store.Store, cfg *ConfigFile) (string, error) {
	if cfg != nil && cfg.Default != "" {
		return cfg.Default, nil
	}
	p, err := st.DefaultProfile()
	switch {
	case err == nil:
		return p.Name, nil
	case !errors.Is(err, store.ErrNotFound):
		return "", err
	}
	if cfg != nil && len(cfg.Profiles) == 1 {
		if all, err := st.Profiles(); err == nil && len(all) == 0 {
			return cfg.Profiles[0].Name, nil
		}
	}
	return "", nil
}

// defaultProfile is the default profile, store.ErrNotFound when none.
func defaultProfile(st *store.Store, cfg *ConfigFile) (store.Profile, error) {
	name, err := defaultName(st, cfg)
	if err != nil {
		return store.Profile{}, err
	}
	if name == "" {
		return store.Profile{}, store.ErrNotFound
	}
	p, err := lookupProfile(st, cfg, name)
	if errors.Is(err, store.ErrNotFound) && cfg != nil && cfg.Default == name {
		return p, &ConfigError{Path: cfg.Path, Line: cfg.DefaultLine, Key: "default",
			Msg: fmt.Sprintf("names profile %q, which neither the file declares nor `vaultdeck login` stored", name)}
	}
	return p, err
}

// AllProfiles are the stored profiles and those the file declares, by
// name, each as lookupProfile makes it.
func AllProfiles(e Env, st *store.Store) ([]store.Profile, *ConfigFile, error) {
	cfg, err := ReadConfigFile(e)
	if err != nil {
		return nil, nil, err
	}
	stored, err := st.Profiles()
	if err != nil {
		return nil, cfg, err
	}
	def, err := defaultName(st, cfg)
	if err != nil {
		return nil, cfg, err
	}
	out := make([]store.Profile, 0, len(stored))
	for _, p := range stored {
		if fp := cfg.Profile(p.Name); fp != nil {
			p = fp.apply(p)
		}
		p.IsDefault = p.Name == def
		out = append(out, p)
	}
	if cfg != nil {
		for i := range cfg.Profiles {
			fp := &cfg.Profiles[i]
			if slices.ContainsFunc(stored, func(p store.Profile) bool { return p.Name == fp.Name }) {
				continue
			}
			p := fp.apply(store.Profile{})
			p.IsDefault = p.Name == def
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b store.Profile) int { return cmp.Compare(a.Name, b.Name) })
	return out, cfg, nil
}

// settingsOf reads a profile's settings: the file's over the store's; a
// profile only the file declares has only the file's.
func settingsOf(st *store.Store, cfg *ConfigFile, p store.Profile) (Settings, error) {
	m, err := st.Settings(p.Name)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Settings{}, err
	}
	if m == nil {
		m = map[string]string{}
	}
	s := ParseSettings(m, p.ReadOnly)
	if fp := cfg.Profile(p.Name); fp != nil {
		s = ParseSettings(fp.settings(m), p.ReadOnly)
		if at, ok := fp.Lines[KeyTheme]; ok {
			s.ThemeAt = cfg.At(at)
		}
	}
	return s, nil
}
