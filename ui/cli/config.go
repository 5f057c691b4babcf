package cli

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
)

// config runs `config get|set|unset` with its words checked by cobra; the
// settings, their checks and defaults are api/account's.
func (r *runner) config(verb string, rest []string) int {
	value := ""
	if len(rest) > 0 && !slices.Contains(account.Keys(), rest[0]) {
		_, err := account.Normalize(rest[0], "", themes.Names())
		return r.p.UsageError(cmdutil.Usagef("%v", err))
	}
	if verb == "set" {
		v, err := account.Normalize(rest[0], rest[1], themes.Names())
		if err != nil {
			return r.p.UsageError(cmdutil.Usagef("%v", err))
		}
		value = v
	}
	st, err := r.f.Store()
	if err != nil {
		return r.fail(err)
	}
	defer st.Close()
	prof, err := account.ConfigProfile(st, r.g.Profile)
	if err != nil {
		return r.fail(err)
	}
	switch verb {
	case "set", "unset":
		if err := account.SetSetting(st, prof.Name, rest[0], value); err != nil {
			return r.fail(err)
		}
		return ExitOK
	}
	settings, err := account.StoredSettings(st, prof)
	if err != nil {
		return r.fail(err)
	}
	if len(rest) == 1 {
		fmt.Fprintln(r.env.Stdout, cmp.Or(settings[rest[0]], account.Default(rest[0])))
		return ExitOK
	}
	if r.jsonOut() {
		return r.emitJSON(settings)
	}
	for _, k := range account.Keys() {
		v, set := settings[k]
		if !set || (k == account.KeyReadOnly && !prof.ReadOnly) {
			v = account.Default(k) + " (default)"
		}
		fmt.Fprintf(r.env.Stdout, "%-12s %s\n", k, v)
	}
	return ExitOK
}
