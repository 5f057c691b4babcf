package serve

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// service is the far side of a recorded write: it counts what reached it.
type service struct{ sent int }

func (s *service) RoundTrip(r *http.Request) (*http.Response, error) {
	s.sent++
	return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(`{"message":"ok"}`)), Request: r}, nil
}

// recordOnce sends one project deletion of a session through the record,
// on a store opened through inj at path, with the fault armed at point
// (0: none). It returns what the service received and what roundTrip said.
func recordOnce(t *testing.T, inj *storefault.Injector, path string, point int, f storefault.Fault) (sent int, err error, log string) {
	t.Helper()
	st, oerr := inj.Open(path)
	if oerr != nil {
		t.Fatal(oerr)
	}
	defer st.Close()
	var buf bytes.Buffer
	var mu sync.Mutex
	srv := &Server{st: st, log: slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, nil))}
	ss := &session{key: &Key{Fingerprint: "SHA256:abc", Comment: "alice@laptop"}, remote: "10.0.0.9:5555"}
	ss.setProfile("prodA")
	rc := &recorder{srv: srv, ss: ss, osUser: "root"}
	svc := &service{}
	req, _ := http.NewRequest(http.MethodDelete, "http://sim/api/v1/vault/delete_project/p1", nil)
	inj.FailAt(point, f)
	resp, err := rc.roundTrip(svc, req)
	if resp != nil {
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	return svc.sent, err, buf.String()
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Every write point of the record of one write made through the hub, with
// every fault: nothing reaches the service unless its row was made
// durable first; a write kept back says it was not sent (api.ErrNotSent);
// a row never claims an answer it did not get; an answer that could not be
// written leaves the row "sent" (no answer recorded: it may have happened)
// and says so in serve's log; and a later process reads the record whole.
func TestFaultWalkOfTheHubRecord(t *testing.T) {
	count := storefault.New()
	sent, err, _ := recordOnce(t, count, filepath.Join(t.TempDir(), store.FileName), 0, storefault.None)
	points := count.Points()
	if sent != 1 || err != nil || points == 0 {
		t.Fatalf("the counting run: sent %d, %v, %d write points", sent, err, points)
	}
	schedules := 0
	for point := 1; point <= points; point++ {
		for _, f := range storefault.Faults {
			schedules++
			path := filepath.Join(t.TempDir(), store.FileName)
			inj := storefault.New()
			sent, err, log := recordOnce(t, inj, path, point, f)
			fired, _ := inj.Fired()
			name := fired.String() + " " + f.String()
			// a later process
			st, oerr := store.Open(path)
			if oerr != nil {
				t.Fatalf("%s: the store does not open after it: %v", name, oerr)
			}
			rows, rerr := st.HubActions(time.Time{})
			st.Close()
			if rerr != nil {
				t.Fatalf("%s: the record cannot be read: %v", name, rerr)
			}
			switch {
			case sent > 1:
				t.Errorf("%s: the write was sent %d times", name, sent)
			case sent == 1 && len(rows) != 1:
				t.Errorf("%s: the write was sent with %d rows in the record", name, len(rows))
			case sent == 0 && !errors.Is(err, api.ErrNotSent):
				t.Errorf("%s: nothing was sent, but the caller was told %v", name, err)
			case sent == 0 && len(rows) > 1:
				t.Errorf("%s: %d rows for a write kept back", name, len(rows))
			case sent == 0 && len(rows) == 1 && rows[0].Outcome != store.HubSent:
				t.Errorf("%s: a write kept back is recorded as %q", name, rows[0].Outcome)
			case sent == 1 && err != nil:
				t.Errorf("%s: the service answered but the caller was told %v", name, err)
			case sent == 1 && rows[0].Outcome != store.HubDone && rows[0].Outcome != store.HubSent:
				t.Errorf("%s: the record says %q of a write the service accepted", name, rows[0].Outcome)
			case sent == 1 && rows[0].Outcome == store.HubSent && !strings.Contains(log, "a write's answer could not be recorded"):
				t.Errorf("%s: the answer was lost from the record and serve's log does not say so:\n%s", name, log)
			}
			for _, a := range rows {
				if a.Actor == "" || a.KeySHA256 != "SHA256:abc" || a.Path != "/api/v1/vault/delete_project/p1" {
					t.Errorf("%s: a row does not name its key and write: %+v", name, a)
				}
			}
		}
	}
	t.Logf("%d write points, %d schedules", points, schedules)
}
