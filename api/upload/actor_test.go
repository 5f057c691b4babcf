package upload

import (
	"context"
	"os/user"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/writejob"
)

// An upload run names who ran it beyond the token's owner, as a write
// job's receipt does (issue 45): the local account and a serve session's
// key.
func TestUploadRunsNameTheirActor(t *testing.T) {
	r := newRig(t)
	me, err := user.Current()
	if err != nil {
		t.Skip("no local account to name:", err)
	}
	ctx := writejob.WithActorKey(context.Background(), "key SHA256:aaa alice@laptop")
	if _, err := r.runner("a").Upload(ctx, r.project, r.files(2, 10), api.DuplicateKeep); err != nil {
		t.Fatal(err)
	}
	runs, err := r.store.UploadRuns("default")
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs %+v %v", runs, err)
	}
	if got := runs[0]; got.ActorOSUser != me.Username || got.ActorKey != "key SHA256:aaa alice@laptop" {
		t.Errorf("the run names local user %q, key %q; want %q, %q", got.ActorOSUser, got.ActorKey, me.Username, "key SHA256:aaa alice@laptop")
	}
}
