package cli

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// homeStore opens the store of the home vars name (VAULTDECK_HOME), as a
// command run with getenv opens it, with profiles saved in it; the test
// closes it when it has written what it needs, before the commands run.
func homeStore(t *testing.T, vars map[string]string, profiles ...store.Profile) (*store.Store, func(string) string) {
	t.Helper()
	getenv := func(k string) string { return vars[k] }
	paths, err := store.DefaultPaths(getenv)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(paths.Database())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, p := range profiles {
		if err := st.SaveProfile(p); err != nil {
			t.Fatal(err)
		}
	}
	return st, getenv
}
