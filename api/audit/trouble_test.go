package audit_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// troubleRig puts a switch in front of the simulator: while status is
// set, audit reads get that status instead of an answer.
func troubleRig(t *testing.T, clock *virtualClock) (*sim.Server, *api.Client, *atomic.Int64) {
	t.Helper()
	var status atomic.Int64
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 7, AuditEntries: 1500, AuditTrickle: 20, Now: clock.Now},
		DefaultLimits: true, Client: api.Config{Clock: clock},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if code := int(status.Load()); code != 0 && strings.HasPrefix(r.URL.Path, "/api/v1/logs/") {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(code)
					w.Write([]byte(`{"error":"trouble"}`))
					return
				}
				next.ServeHTTP(w, r)
			})
		}})
	return e.Sim, e.Client, &status
}

// TestFollowRidesOutTrouble: a 401 (a token being renewed), a 403 and an
// outage (503) are each said once on stderr with what to do, retried with
// growing waits, and followed by a line when the service answers again;
// follow never stops for them, and the entries delivered stay complete
// and in order.
func TestFollowRidesOutTrouble(t *testing.T) {
	clock := newVirtualClock()
	s, c, status := troubleRig(t, clock)
	var out bytes.Buffer
	var notices []string
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	caught, failures := 0, 0
	trouble := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusServiceUnavailable}
	err := (&audit.Job{Svc: c, Clock: clock}).Follow(ctx, audit.FollowOptions{
		Sink:   &audit.WriterSink{W: bufio.NewWriter(&out)},
		Notice: func(n string) { notices = append(notices, n) },
		Event: func(ev audit.FollowEvent) {
			if ev.Err != nil {
				if failures++; failures%6 == 0 { // six failed reads, then it clears
					status.Store(0)
				}
				return
			}
			if ev.CaughtUp {
				caught++
				if k := caught / 5; caught%5 == 0 && k <= len(trouble) {
					status.Store(int64(trouble[k-1]))
				}
				if caught > 5*len(trouble)+5 {
					cancel()
				}
			}
		},
	})
	if err != nil {
		t.Fatalf("follow stopped: %v", err)
	}
	if failures != 6*len(trouble) {
		t.Errorf("%d failed reads, want %d", failures, 6*len(trouble))
	}
	text := strings.Join(notices, "\n")
	for _, want := range []string{"(401)", "log in again", "(403)", "Territory admin or Organization admin", "(503)", "nothing is lost meanwhile", "the service answers again"} {
		if !strings.Contains(text, want) {
			t.Errorf("stderr does not say %q:\n%s", want, text)
		}
	}
	if len(notices) != 2*len(trouble) {
		t.Errorf("%d notices, want one when each trouble starts and one when it clears:\n%s", len(notices), text)
	}
	_ = s
	ids := idsOfLines(t, out.String())
	full := newRigFor(t, s).fullLog(t)
	if !slices.Equal(ids, full[:len(ids)]) {
		t.Errorf("delivered %d entries, not the service's first ones in order", len(ids))
	}
}

// TestFollowStopsOnAPermanentError: a 400 (the service refusing the
// request itself) is not retried: follow returns it.
func TestFollowStopsOnAPermanentError(t *testing.T) {
	clock := newVirtualClock()
	_, c, status := troubleRig(t, clock)
	status.Store(http.StatusBadRequest)
	var out bytes.Buffer
	err := (&audit.Job{Svc: c, Clock: clock}).Follow(context.Background(), audit.FollowOptions{Sink: &audit.WriterSink{W: bufio.NewWriter(&out)}})
	if !errors.Is(err, api.KindInvalidRequest) {
		t.Fatalf("follow after a 400: %v", err)
	}
}

// newRigFor reads an existing simulator through a plain client.
func newRigFor(t *testing.T, s *sim.Server) *rig {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Server: s, DefaultLimits: true, Client: api.Config{Limits: api.Limits{Audit: -1}}})
	return &rig{sim: s, client: e.Client}
}
