package matters

import (
	"context"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// A matter run's receipt names who ran it beyond the token's owner, as a
// write job's does (issue 45): the local account and, in a serve session,
// the key. Its restore is a run of its own and names its own.
func TestMatterReceiptsNameTheirActor(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var pairs []Pair
	for _, m := range e.Sim.Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(pairs) < 2 {
			pairs = append(pairs, Pair{Line: len(pairs) + 1, ClientID: m.ClientID, MatterID: m.MatterID})
		}
	}
	me, err := user.Current()
	if err != nil {
		t.Skip("no local account to name:", err)
	}
	d := Deps{Service: e.Client, Store: st, Profile: "p"}
	id, _, err := Delete(writejob.WithActorKey(context.Background(), "key SHA256:aaa alice@laptop"), d, Source{Name: "m.csv"}, NewPlan(pairs, 0), Watch{})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := PlanRestore(st, id)
	if err != nil {
		t.Fatal(err)
	}
	rid, _, err := Restore(writejob.WithActorKey(context.Background(), "certificate bob (key ID b-1)"), d, rp, Watch{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id  int64
		key string
	}{{id, "key SHA256:aaa alice@laptop"}, {rid, "certificate bob (key ID b-1)"}} {
		rc, err := st.Receipt(c.id)
		if err != nil {
			t.Fatal(err)
		}
		if rc.ActorOSUser != me.Username || rc.ActorKey != c.key {
			t.Errorf("receipt %d (%s) names local user %q, key %q; want %q, %q", rc.ID, rc.Action, rc.ActorOSUser, rc.ActorKey, me.Username, c.key)
		}
	}
}
