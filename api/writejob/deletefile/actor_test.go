package deletefile_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
)

// A deletion run in a serve session names the session's key in its
// receipt, and the local account wherever it runs, whatever view or
// command built its header.
func TestDeletionReceiptNamesItsActor(t *testing.T) {
	w := newWorld(t)
	w.Fresh(t)
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := writejob.WithActorKey(context.Background(), "key SHA256:abc alice@laptop")
	rep, err := deletefile.Delete(ctx, st, w.c, store.WriteJob{Profile: "p", BaseURL: "http://sim", Plan: "delete a.pdf"}, w.plan[:1], 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := writejob.ReadReceipt(st, rep.Job.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rc.Job.ActorKey != "key SHA256:abc alice@laptop" || rc.Job.ActorOSUser == "" {
		t.Errorf("the receipt names key %q, local user %q", rc.Job.ActorKey, rc.Job.ActorOSUser)
	}
}
