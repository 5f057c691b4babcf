package console

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// mattersFixture is what the matters view's modes need to be reached in a
// walk: a matter file (two pairs the service holds, one refused by the
// client's checks) for the preview and the run, and a receipt of an
// earlier deletion (one matter deleted, one absent) for the receipt mode.
type mattersFixture struct {
	file    string // its path
	receipt int64
}

func (e *keyEnv) matters(t *testing.T) mattersFixture {
	t.Helper()
	var live []sim.MatterInfo
	for _, m := range e.sim.Matters() {
		if m.ClientID != "" && !m.Deleted && !m.ExternallyLinked && !strings.Contains(m.ClientID+m.MatterID, ".") {
			live = append(live, m)
		}
	}
	if len(live) < 3 {
		t.Fatalf("the seed holds %d plain matters; the walk needs 3", len(live))
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fx := mattersFixture{file: write("march-closures.csv", fmt.Sprintf("client_id,matter_id\n%s,%s\n%s,%s\n%s,\n",
		live[0].ClientID, live[0].MatterID, live[1].ClientID, live[1].MatterID, live[1].ClientID))}
	earlier := write("february-closures.csv", fmt.Sprintf("client_id,matter_id\n%s,%s\nNOBODY,0000-0000\n", live[2].ClientID, live[2].MatterID))
	f, err := os.Open(earlier)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	file, err := matters.Read(f, matters.Auto)
	if err != nil {
		t.Fatal(err)
	}
	d := matters.Deps{Service: e.opts.Jobs.Matters, Store: e.opts.Receipts, Profile: "sim", Endpoint: e.opts.Backend.Base()}
	id, rep, err := matters.Delete(context.Background(), d, matters.Source{Name: "february-closures.csv", SHA256: file.SHA256}, matters.NewPlan(file.Pairs, 1<<30), matters.Watch{})
	if err != nil || rep.Err != nil {
		t.Fatalf("the earlier deletion: %v %v", err, rep)
	}
	fx.receipt = id
	return fx
}

// heldMatters is the matter service of a run that waits: its requests never
// reach the service until the run is stopped, so the run's mode stays on
// screen for every key of a walk.
type heldMatters struct{ matters.Service }

var errHeld = errors.New("held by the test: never sent")

func (heldMatters) DeleteMatters(ctx context.Context, _ []api.MatterPair) (*api.MatterDeletion, error) {
	<-ctx.Done()
	return nil, errHeld
}

func (heldMatters) UpsertMatters(ctx context.Context, _ []api.MatterPair) (*api.MatterUpsert, error) {
	<-ctx.Done()
	return nil, errHeld
}

// The run's screen says "the run goes on if you leave this view", yet esc
// there did nothing and said nothing (the view kept esc for itself and
// dropped it; the key walk lets esc be silent on a first page, which hid
// it). esc leaves the view, and the run goes on: the footer counts it.
func TestEscLeavesARunningDeletion(t *testing.T) {
	e := newKeyEnv(t)
	fx := e.matters(t)
	o := e.opts
	o.Jobs = &page.Jobs{Matters: heldMatters{o.Jobs.Matters}}
	r := e.open(t, o, keyState{name: "projects, then a run", route: "projects", wait: "12 of 12 loaded",
		steps: [][2]string{{":", ":"}, {"matters " + fx.file, "matters"}, {"enter", "Preview of march-closures.csv"},
			{"X", "Type 2 to confirm"}, {"2", "Delete client matters"}, {"enter", "Deleting client matters"}}})
	const task = "#1 delete matters from march-closures.csv"
	if !r.until(func() bool { return strings.Contains(r.m.View(), task) }, 10*time.Second) {
		t.Fatalf("the run's task never showed:\n%s", r.m.View())
	}
	r.send(keyMsg("esc"))
	if v := r.m.View(); !strings.Contains(v, "12 of 12 loaded") || strings.Contains(v, "Deleting client matters") || !strings.Contains(v, task) {
		t.Fatalf("esc on a running deletion did not leave the view, the run going on:\n%s", v)
	}
}
