package account

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/token/tokentest"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestExcelIsAProfileSetting (issue 42): `excel` is a setting as the others
// are, in the configuration file or stored by `config set`, true or false
// in any of the words read-only takes; it resolves to Resolved.Excel, which
// the console's e reads. Unset, it is off.
func TestExcelIsAProfileSetting(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{"VAULTDECK_HOME": home}
	e := Env{Getenv: env(vars), Keyring: tokentest.NewMemoryKeyring()}
	st, err := store.Open(filepath.Join(home, "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, name := range []string{"stored", "plain"} {
		if err := st.SaveProfile(store.Profile{Name: name, TokenStorage: store.StorageKeyring}); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Normalize(KeyExcel, "yes", nil)
	if err != nil || v != "true" {
		t.Fatalf("config set excel yes: %q, %v", v, err)
	}
	if _, err := Normalize(KeyExcel, "sometimes", nil); err == nil {
		t.Error("excel took sometimes")
	}
	if err := SetSetting(st, "stored", KeyExcel, v); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("profiles:\n  filed:\n    base-url: http://127.0.0.1:9/\n    excel: on\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"stored": true, "filed": true, "plain": false} {
		c, err := Open(e, st, name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Resolve(Request{Chosen: c, Getenv: e.Getenv})
		if err != nil {
			t.Fatal(err)
		}
		if r.Excel != want {
			t.Errorf("profile %s: excel resolves to %v, want %v", name, r.Excel, want)
		}
	}
}
