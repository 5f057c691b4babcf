package writejob

import (
	"context"
	"os/user"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// A job names who ran it beyond the token's owner: the local account on
// every machine, and the SSH key or certificate of a serve session when
// the job runs in one. Stamp is the one place that says so.
func TestStampNamesTheLocalUserAndTheSessionKey(t *testing.T) {
	u, err := user.Current()
	if err != nil {
		t.Skip("this machine cannot name its user:", err)
	}
	j := Stamp(context.Background(), store.WriteJob{Kind: "x"})
	if j.ActorOSUser != u.Username || j.ActorKey != "" {
		t.Errorf("headless: os user %q key %q, want %q and none", j.ActorOSUser, j.ActorKey, u.Username)
	}
	ctx := WithActorKey(context.Background(), "key SHA256:abc alice@laptop")
	j = Stamp(ctx, store.WriteJob{Kind: "x"})
	if j.ActorOSUser != u.Username || j.ActorKey != "key SHA256:abc alice@laptop" {
		t.Errorf("through the hub: os user %q key %q", j.ActorOSUser, j.ActorKey)
	}
	// what a caller set is kept
	j = Stamp(ctx, store.WriteJob{ActorOSUser: "svc", ActorKey: "given"})
	if j.ActorOSUser != "svc" || j.ActorKey != "given" {
		t.Errorf("a caller's actor was replaced: %+v", j)
	}
}

func TestWhoNamesEveryActor(t *testing.T) {
	for _, c := range []struct {
		j    store.WriteJob
		want string
	}{
		{store.WriteJob{ActorEmail: "a@firm", ActorOSUser: "root"}, "a@firm (root on this machine)"},
		{store.WriteJob{ActorEmail: "a@firm", ActorOSUser: "root", ActorKey: "key SHA256:abc alice@laptop"},
			"a@firm (root on this machine; key SHA256:abc alice@laptop)"},
		{store.WriteJob{}, "- (- on this machine)"},
	} {
		if got := Who(c.j); got != c.want {
			t.Errorf("Who(%+v) = %q, want %q", c.j, got, c.want)
		}
	}
}
