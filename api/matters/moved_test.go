package matters_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestDeletionStopsWhenTheDatabaseFilesChange (issue 40): the write-ahead
// log and its index removed after the first request (a cleaning script): the
// run stops before the second, which is not sent, and its report and the
// receipt say what changed; the receipt, folded into the file, names the
// first request's deletions.
func TestDeletionStopsWhenTheDatabaseFilesChange(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1}, api.Limits{})
	db := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	deletes := 0
	e.intercept = func(n int64, w http.ResponseWriter, r *http.Request) bool {
		if r.Method == http.MethodDelete || r.Method == http.MethodPost {
			if deletes++; deletes == 2 {
				os.Remove(db + "-wal")
				os.Remove(db + "-shm")
			}
		}
		return false
	}
	ms := live(t, e.s, 6)
	plan := smallBatches(matters.NewPlan(read(t, csvOf(ms)), 0), 2)
	id, rep, err := matters.Delete(context.Background(), matters.Deps{Service: e.c, Store: st, Profile: "default"}, matters.Source{Name: "m.csv"}, plan, matters.Watch{})
	if err != nil {
		t.Fatal(err)
	}
	if deletes != 2 {
		t.Errorf("%d deletion requests reached the service, want 2: the run went on after the database's files changed", deletes)
	}
	if rep.Err == nil || !strings.Contains(rep.Err.Error(), "changed under this process") {
		t.Errorf("the report's error: %v, want the change named", rep.Err)
	}
	if rep.SentLines != "1-4" {
		t.Errorf("lines sent %q, want 1-4", rep.SentLines)
	}
	r, err := st.Receipt(id)
	if err != nil || r.Status != store.ReceiptStopped || !strings.Contains(r.Note, "write-ahead log") {
		t.Errorf("receipt %d: %+v, %v: want it stopped with the change named", id, r, err)
	}
}
