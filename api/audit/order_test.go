package audit_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// disorderly is a listing that does not continue after its cursor, each
// as a hostile or broken service might answer (issue 26, case 5).
var disorderly = map[string]func(q map[string][]string, body []byte) []byte{
	// from is ignored: every page lists the log from its start
	"ignores from": func(q map[string][]string, body []byte) []byte { return nil },
	// the first entry of every page after the first is dated an hour
	// before the entry it follows, though its id ascends
	"time goes back": func(q map[string][]string, body []byte) []byte {
		var items []map[string]any
		if json.Unmarshal(body, &items) != nil || len(items) == 0 {
			return body
		}
		items[0]["timestamp"] = "2001-01-01T00:00:00.000000"
		out, _ := json.Marshal(items)
		return out
	},
}

// disorderlyRig serves the simulator with its audit listing bent by bend
// (nil body from bend: the listing from the start, whatever from says).
func disorderlyRig(t *testing.T, entries int, bend func(map[string][]string, []byte) []byte) *api.Client {
	t.Helper()
	bent := func(s http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/api/v1/logs/audit" || r.URL.Query().Get("from") == "" {
				s.ServeHTTP(w, r)
				return
			}
			q := r.URL.Query()
			probe := httptest.NewRecorder()
			s.ServeHTTP(probe, r)
			body := bend(q, probe.Body.Bytes())
			if body == nil {
				q.Set("from", "00000000-0000-0000-0000-000000000000")
				r.URL.RawQuery = q.Encode()
				probe = httptest.NewRecorder()
				s.ServeHTTP(probe, r)
				body = probe.Body.Bytes()
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(probe.Code)
			w.Write(body)
		})
	}
	return simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 7, NoRateLimit: true, AuditEntries: entries}, Wrap: bent}).Client
}

// TestEveryAuditReaderRefusesAListingThatGoesBack: a listing that repeats
// itself or goes back in time stops every reader (query, sync, follow to a
// file and to a stream, the console's poll) with an error naming the
// listing, and nothing is delivered twice. Before: `audit --limit 0` gave
// 2,001 lines for 1,000 entries and exit 0; follow grew without end.
func TestEveryAuditReaderRefusesAListingThatGoesBack(t *testing.T) {
	for name, bend := range disorderly {
		t.Run(name, func(t *testing.T) {
			c := disorderlyRig(t, 2500, bend)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			check := func(reader string, err error, ids []string) {
				t.Helper()
				if !errors.Is(err, api.ErrAuditOrder) || !strings.Contains(err.Error(), "GET /api/v1/logs/audit") {
					t.Errorf("%s: err = %v, want the listing named as going back", reader, err)
				}
				seen := map[string]bool{}
				for _, id := range ids {
					if seen[id] {
						t.Errorf("%s delivered %s twice", reader, id)
						return
					}
					seen[id] = true
				}
			}
			var got []string
			_, err := (&audit.Job{Svc: c}).Query(ctx, store.AuditFilter{}, func(e store.AuditEntry) error {
				got = append(got, e.ID)
				return nil
			})
			check("query", err, got)

			got = got[:0]
			_, err = (&audit.Job{Svc: c}).Query(ctx, store.AuditFilter{Since: time.Now().Add(-30 * 24 * time.Hour)}, func(e store.AuditEntry) error {
				got = append(got, e.ID)
				return nil
			})
			check("query --since", err, got)

			m := newFakeMirror()
			_, err = (&audit.Job{Svc: c, Mirror: m}).Sync(ctx)
			log, _, _ := audit.LogOf(ctx, c)
			check("sync", err, m.ids_(log))

			path := filepath.Join(t.TempDir(), "a.jsonl")
			sink, ferr := audit.OpenFileSink(path)
			if ferr != nil {
				t.Fatal(ferr)
			}
			err = (&audit.Job{Svc: c}).Follow(ctx, audit.FollowOptions{Sink: sink, Poll: time.Millisecond})
			sink.Close()
			data, _ := os.ReadFile(path)
			check("follow --out", err, idsOfLines(t, string(data)))

			var out bytes.Buffer
			err = (&audit.Job{Svc: c}).Follow(ctx, audit.FollowOptions{Sink: &audit.WriterSink{W: bufio.NewWriter(&out)}, Poll: time.Millisecond})
			check("follow", err, idsOfLines(t, out.String()))

			if name == "ignores from" { // one page alone shows it when from is ignored
				first, _ := c.AuditEarliest(ctx, "")
				_, err = (&audit.Job{Svc: c}).Poll(ctx, first.Value.ID, "", "")
				check("poll", err, nil)
			}
		})
	}
}
