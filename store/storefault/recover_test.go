package storefault_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// smallStore is a store with a profile, a run and 40 audit entries, folded
// into its file; it returns the file's hash.
func smallStore(t *testing.T, path string) [32]byte {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveProfile(store.Profile{Name: "work", Region: "us"}); err != nil {
		t.Fatal(err)
	}
	if _, err := recordRun(st); err != nil {
		t.Fatal(err)
	}
	p := store.AuditMirrorPage{Log: "log", At: time.Unix(1e9, 0)}
	for i := range 40 {
		p.Entries = append(p.Entries, store.AuditEntry{ID: fmt.Sprintf("e%03d", i), User: "u@example.com", Raw: []byte(`{}`)})
	}
	p.Cursor = p.Entries[39].ID
	if err := st.SaveAuditPage(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	st.Close() // folds the log: the file is the whole database
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// recoverySchedules is how many (write point, fault) pairs CI walks.
const recoverySchedules = 60

// TestEveryWritePointOfARecovery fails each write point of `store recover`'s
// fresh file with a full disk, an I/O error and a crash: the recovery fails,
// the database is the file it was, byte for byte, at its path, and a
// recovery run again (a new process) completes with every row.
func TestEveryWritePointOfARecovery(t *testing.T) {
	count := storefault.New()
	path := filepath.Join(t.TempDir(), store.FileName)
	smallStore(t, path)
	count.Reset()
	if _, err := store.RecoverWith(context.Background(), path, filepath.Join(t.TempDir(), "copy.db"), time.Now(), store.Options{Driver: count.Driver()}); err != nil {
		t.Fatal(err)
	}
	points := count.Points()
	if points < 10 {
		t.Fatalf("a recovery made %d write points: %v", points, count.Trace())
	}
	template, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	was := sha256.Sum256(template)
	faults := []storefault.Fault{storefault.DiskFull, storefault.IOError, storefault.Crash}
	// Every point with every fault is points*3 schedules (some 500); CI
	// walks a seeded sample of recoverySchedules, VAULTDECK_FAULT_SCHEDULES
	// more (the store fault walks' variable).
	all := points * len(faults)
	schedules := recoverySchedules
	if v, err := strconv.Atoi(os.Getenv("VAULTDECK_FAULT_SCHEDULES")); err == nil && v > 0 {
		schedules = v
	}
	order := rand.New(rand.NewPCG(1, 40)).Perm(all)
	for _, k := range order[:min(schedules, all)] {
		n, f := k/len(faults)+1, faults[k%len(faults)]
		path := filepath.Join(t.TempDir(), store.FileName)
		if err := os.WriteFile(path, template, 0o600); err != nil {
			t.Fatal(err)
		}
		inj := storefault.New()
		inj.FailAt(n, f)
		_, err := store.RecoverWith(context.Background(), path, "", time.Now(), store.Options{Driver: inj.Driver()})
		if err == nil {
			t.Fatalf("write %d failing with %v: the recovery reported success", n, f)
		}
		b, rerr := os.ReadFile(path)
		if rerr != nil || sha256.Sum256(b) != was {
			t.Fatalf("write %d failing with %v: the database is not the file it was (%v): %v", n, f, rerr, err)
		}
		if f != storefault.Crash {
			if _, err := os.Stat(path + ".recovering"); !os.IsNotExist(err) {
				t.Fatalf("write %d failing with %v: the partial copy is left (%v)", n, f, err)
			}
		}
		rec, err := store.Recover(context.Background(), path, "", time.Now())
		if err != nil {
			t.Fatalf("write %d failing with %v, then a recovery again: %v", n, f, err)
		}
		var rows int64
		for _, tr := range rec.Tables {
			rows += tr.Rows
		}
		if rows < 43 {
			t.Fatalf("write %d failing with %v, then a recovery again copied %d rows: %+v", n, f, rows, rec.Tables)
		}
	}
}
