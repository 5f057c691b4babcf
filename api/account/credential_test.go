package account

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/token"
	"github.com/vaultdeck/vaultdeck/api/token/tokentest"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestEveryCommandReadsTheUnitsCredential: the source every headless
// command and the console get (TokenSource, through Open) reads
// $CREDENTIALS_DIRECTORY/PROFILE as serve's does, so a unit's
// LoadCredential= reaches `audit follow` too, without a token file.
func TestEveryCommandReadsTheUnitsCredential(t *testing.T) {
	home, creds := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(creds, "siem"), []byte("vdtok_from_the_unit\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	e := Env{Getenv: env(map[string]string{"VAULTDECK_HOME": home, token.CredentialsEnvVar: creds}), Keyring: tokentest.NewMemoryKeyring()}
	st, err := e.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SaveProfile(store.Profile{Name: "siem", Region: "eu"}); err != nil {
		t.Fatal(err)
	}
	c, err := Open(e, st, "siem")
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Source.Resolve(context.Background())
	if err != nil || r.Token != "vdtok_from_the_unit" || r.Source != token.KindCredential {
		t.Fatalf("the unit's credential: %v %v", r, err)
	}
}
