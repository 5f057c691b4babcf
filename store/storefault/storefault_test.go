package storefault_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

func recordRun(st *store.Store) (int64, error) {
	l := store.Lease{Owner: "me", Until: time.Now().Add(time.Hour)}
	id, _, err := st.RecordRun(store.UploadRun{Profile: "p", ProjectID: "x", Mode: "keep"}, nil,
		[][]store.JournalFile{{{Local: "/a", Name: "a"}, {Local: "/b", Name: "b"}}}, l)
	return id, err
}

func runs(t *testing.T, path string) int {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := st.UploadRuns("p")
	if err != nil {
		t.Fatal(err)
	}
	return len(r)
}

// TestEveryWritePointOfOneTransaction fails each write point of RecordRun
// with each fault: a write that returned nil is kept, one that failed is not
// (a COMMIT the crash came after is kept though its caller heard nothing),
// and a crashed process writes nothing more.
func TestEveryWritePointOfOneTransaction(t *testing.T) {
	count := storefault.New()
	st, err := count.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	count.Reset()
	if _, err := recordRun(st); err != nil {
		t.Fatal(err)
	}
	trace := count.Trace()
	st.Close()
	if len(trace) < 4 || trace[0].Kind != "begin" || trace[len(trace)-1].Kind != "commit" {
		t.Fatalf("RecordRun's write points: %v", trace)
	}
	for n := 1; n <= len(trace); n++ {
		for _, f := range storefault.Faults {
			path := filepath.Join(t.TempDir(), store.FileName)
			inj := storefault.New()
			st, err := inj.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			inj.FailAt(n, f)
			_, err = recordRun(st)
			p, fired := inj.Fired()
			if !fired || p.N != n {
				t.Fatalf("%v at %d: fired %v %v", f, n, fired, p)
			}
			kept := runs(t, path)
			crashedAfter := f == storefault.CrashAfterCommit && p.Kind == "commit"
			switch {
			case crashedAfter && (kept != 1 || !errors.Is(err, storefault.ErrCrashed)):
				t.Errorf("%v at %v: err %v, %d runs kept; want the commit kept and its caller told of the crash", f, p, err, kept)
			case !crashedAfter && err == nil && kept != 1:
				t.Errorf("%v at %v: no error but %d runs kept", f, p, kept)
			case !crashedAfter && err != nil && kept != 0:
				t.Errorf("%v at %v: error %v but %d runs kept", f, p, err, kept)
			}
			if f == storefault.Busy || f == storefault.DiskFull || f == storefault.IOError || f == storefault.Locked {
				var inj *storefault.Error
				if err != nil && !errors.As(err, &inj) {
					t.Errorf("%v at %v: %v is not the injected error", f, p, err)
				}
			}
			if f == storefault.Crash || f == storefault.CrashAfterCommit {
				if !inj.Crashed() {
					t.Errorf("%v at %v: not crashed", f, p)
				}
				if _, err := recordRun(st); !errors.Is(err, storefault.ErrCrashed) {
					t.Errorf("%v at %v: a write after the crash returned %v", f, p, err)
				}
				if got := runs(t, path); got != kept {
					t.Errorf("%v at %v: the dead process still wrote (%d runs, then %d)", f, p, kept, got)
				}
			}
			st.Close()
		}
	}
}
