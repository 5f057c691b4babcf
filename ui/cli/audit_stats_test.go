package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestAuditStatsMarksAPlantedBurst: on the simulator's seeded log with a
// planted burst of deletions from a new address, `audit stats` (from the
// mirror, no request) marks the burst, in the table and in --json, and the
// mark's range, type and address given to `audit` list exactly the planted
// deletions. Before a sync it says there is no mirror and how to make one,
// and exits 1.
func TestAuditStatsMarksAPlantedBurst(t *testing.T) {
	const planted = 40
	var requests atomic.Int64
	e := simtest.Start(t, simtest.Options{
		Sim:  sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow, AuditEntries: 3000, AuditBurst: sim.AuditBurst{Count: planted}},
		Wrap: func(next http.Handler) http.Handler { return countAudit(next, &requests) },
	})
	s, srv := e.Sim, e
	dir := t.TempDir()
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": srv.URL}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1},
			OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(dir, "vaultdeck.db")) },
			Clock:     fixedClock{}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	if r := vd("audit", "stats", "--since", "2d"); r.code != 1 || !strings.Contains(r.stderr, "no local audit mirror") || !strings.Contains(r.stderr, "vaultdeck audit sync") {
		t.Fatalf("without a mirror: %d %q", r.code, r.stderr)
	}
	if r := vd("audit", "sync"); r.code != 0 {
		t.Fatalf("sync: %d %q", r.code, r.stderr)
	}
	requests.Store(0)
	table := vd("audit", "stats", "--since", "2d", "--by", "hour")
	if table.code != 0 || requests.Load() != 0 {
		t.Fatalf("stats: %d, %d audit requests, %q", table.code, requests.Load(), table.stderr)
	}
	if !strings.Contains(table.stdout, "burst") || !strings.Contains(table.stdout, sim.DefaultBurstIP+", an address") || !strings.Contains(table.stdout, "first used") {
		t.Fatalf("the table marks no burst from %s:\n%s", sim.DefaultBurstIP, table.stdout)
	}
	js := vd("audit", "stats", "--since", "2d", "--by", "hour", "--json")
	// the promised field names, read as a script reads them
	type mark struct {
		Kind       string
		Start, End time.Time
		Type, IP   string
		Count      int
	}
	var got struct {
		By      string
		Total   int
		Buckets []json.RawMessage
		Marks   []mark
		Mirror  struct{ Entries int64 }
	}
	if js.code != 0 || json.Unmarshal([]byte(js.stdout), &got) != nil {
		t.Fatalf("--json: %d %q\n%s", js.code, js.stderr, js.stdout)
	}
	var burst *mark
	for i, m := range got.Marks {
		if m.Kind == "burst" {
			if burst != nil {
				t.Fatalf("two bursts: %+v", got.Marks)
			}
			burst = &got.Marks[i]
		}
	}
	if burst == nil || burst.IP != sim.DefaultBurstIP || burst.Type != sim.AuditAPIDeleteProject || burst.Count != planted {
		t.Fatalf("burst mark %+v; marks %+v", burst, got.Marks)
	}
	if got.By != "hour" || len(got.Buckets) != 48 || got.Total == 0 || got.Mirror.Entries == 0 {
		t.Errorf("by %s, %d buckets, total %d, mirror %+v", got.By, len(got.Buckets), got.Total, got.Mirror)
	}
	// the entries behind the mark: the mark's range, type and address
	list := vd("audit", "--since", burst.Start.Format(time.RFC3339Nano), "--until", burst.End.Format(time.RFC3339Nano),
		"--type", burst.Type, "--ip", burst.IP, "--limit", "0", "--jsonl")
	lines := strings.Split(strings.TrimSpace(list.stdout), "\n")
	if list.code != 0 || len(lines) != planted {
		t.Fatalf("the mark's entries: %d, %d lines, %q", list.code, len(lines), list.stderr)
	}
	for _, l := range lines {
		var e struct{ Type, IP string }
		if json.Unmarshal([]byte(l), &e) != nil || e.Type != sim.AuditAPIDeleteProject || e.IP != sim.DefaultBurstIP {
			t.Fatalf("not a planted deletion: %s", l)
		}
	}
	for _, bad := range [][]string{{"--by", "week"}, {"--since", "2026-13-01"}, {"--since", "1d", "--until", "2d"}} {
		if r := vd(append([]string{"audit", "stats"}, bad...)...); r.code != 2 {
			t.Errorf("%v: %d %q", bad, r.code, r.stderr)
		}
	}
}

var _ http.Handler = (*sim.Server)(nil)
