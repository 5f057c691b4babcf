package audit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// The fault walk's simulator (in memory) and its checker of the files.

// memTransport serves requests from the simulator in memory: a schedule
// costs no socket, so hundreds of them run in seconds.
type memTransport struct {
	h http.Handler
	n atomic.Int64
}

func (t *memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	res := rec.Result()
	res.Request = r
	return res, nil
}

func memClient(t *testing.T, s *sim.Server, clock api.Clock) (*api.Client, *memTransport) {
	t.Helper()
	tr := &memTransport{h: s}
	c, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", Token: api.StaticToken(s.Token("admin")), Clock: clock,
		HTTPClient: &http.Client{Transport: tr}, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}})
	if err != nil {
		t.Fatal(err)
	}
	return c, tr
}

// checkFiles reads the files in rotation order: every line whole and an
// entry, and together every entry of the log once, in the log's order,
// up to the follower's last read.
func checkFiles(c *api.Client, tr *memTransport, files []string) []string {
	var problems []string
	var ids []string
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return append(problems, err.Error())
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			problems = append(problems, fmt.Sprintf("%s ends in a torn line: %q", filepath.Base(p), tail(data)))
		}
		got, bad := parseLines(data)
		if bad != "" {
			problems = append(problems, fmt.Sprintf("%s holds a line that is not one entry: %q", filepath.Base(p), bad))
		}
		ids = append(ids, got...)
	}
	before := tr.n.Load()
	var full []string
	_, err := c.Audit(api.AuditQuery{}).Each(context.Background(), func(e *api.AuditEntry, _ api.RawItem) error {
		full = append(full, e.ID)
		return nil
	}, nil)
	if err != nil {
		return append(problems, err.Error())
	}
	full = full[:len(full)-int(tr.n.Load()-before)] // the checker's own reads are not the follower's to deliver
	seen := map[string]int{}
	for i, id := range ids {
		if j, ok := seen[id]; ok {
			return append(problems, fmt.Sprintf("entry %s is in the files twice (lines %d and %d of %d)", id, j+1, i+1, len(ids)))
		}
		seen[id] = i
	}
	for i := range min(len(ids), len(full)) {
		if ids[i] != full[i] {
			return append(problems, fmt.Sprintf("entry %d of the files is %s, the log's is %s (lost or out of order)", i+1, ids[i], full[i]))
		}
	}
	if len(ids) != len(full) {
		problems = append(problems, fmt.Sprintf("the files hold %d entries, the log %d", len(ids), len(full)))
	}
	return problems
}

func tail(b []byte) []byte { return b[max(0, len(b)-60):] }

// parseLines is the id of every line; bad is the first line that is not
// exactly one JSON object with an id.
func parseLines(data []byte) (ids []string, bad string) {
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		line := data[:i]
		if i < len(data) {
			i++
		}
		data = data[i:]
		id, ok := oneEntry(line)
		if !ok {
			if bad == "" {
				bad = string(tail(line))
			}
			continue
		}
		ids = append(ids, id)
	}
	return ids, bad
}

// schedules is the walk: for each seed, every write point of a run
// without faults, with every fault that point can meet; until n.
func schedules(t *testing.T, n int) []schedule {
	var out []schedule
	for seed := int64(1); len(out) < n; seed++ {
		dry := runSchedule(t, scratch(t), schedule{seed: seed, at: -1})
		if len(dry.problems) > 0 {
			t.Errorf("seed %d without faults: %v", seed, dry.problems)
		}
		for i, op := range dry.ops {
			for _, f := range faultsAt[op] {
				out = append(out, schedule{seed: seed, at: i, f: f})
			}
			if op == opWrite || op == opSync {
				// the cut of a failed batch is a write point only after a
				// failure: walk its faults behind each failure that cuts
				for _, then := range faultsAt[opTruncate] {
					out = append(out, schedule{seed: seed, at: i, f: fENOSPC, then: then})
				}
			}
		}
	}
	return out[:n]
}

// oneEntry is the id of line when it is exactly one JSON object with one.
func oneEntry(line []byte) (string, bool) {
	var e struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(line, &e) != nil || e.ID == "" {
		return "", false
	}
	return e.ID, true
}
