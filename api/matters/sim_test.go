package matters_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

var epoch = time.Date(2025, 6, 2, 9, 0, 0, 0, time.UTC)

type env struct {
	s        *sim.Server
	c        *api.Client
	requests atomic.Int64
	// intercept, when set, may answer a request instead of the simulator.
	intercept func(n int64, w http.ResponseWriter, r *http.Request) bool
}

func newEnv(t testing.TB, token string, opts sim.Options, limits api.Limits) *env {
	t.Helper()
	opts.Now = func() time.Time { return epoch }
	e := &env{}
	// The client is on the simulator's clock: rate windows and
	// Retry-After waits pass without sleeping.
	st := simtest.Start(t, simtest.Options{Sim: opts, Token: token, SimClock: true, DefaultLimits: true, Client: api.Config{Limits: limits},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := e.requests.Add(1)
				if e.intercept != nil && e.intercept(n, w, r) {
					return
				}
				next.ServeHTTP(w, r)
			})
		}})
	e.s, e.c = st.Sim, st.Client
	return e
}

func read(t testing.TB, in string) []matters.Pair {
	t.Helper()
	f, err := matters.Read(strings.NewReader(in), matters.Auto)
	if err != nil {
		t.Fatal(err)
	}
	return f.Pairs
}

// live returns n present, unlinked v2 matters of the seed that no fixture uses.
func live(t testing.TB, s *sim.Server, n int) []sim.MatterInfo {
	var out []sim.MatterInfo
	for _, m := range s.Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(out) < n {
			out = append(out, m)
		}
	}
	if len(out) < n {
		t.Fatalf("seed has %d usable matters, want %d", len(out), n)
	}
	return out
}

func result(rep *matters.Report, line int) matters.Outcome {
	for _, o := range rep.Outcomes {
		if o.Line == line {
			return o
		}
	}
	return matters.Outcome{}
}

// Every per-pair code, from the client's reading and from the simulator's
// seeded fixtures, each pair reported once in input order with its line.
func TestDeleteEveryCode(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1}, api.Limits{})
	m := live(t, e.s, 1)[0]
	// (NC, A.B) is stored as "NC.A.B", which (NC.A, B) also reaches by
	// stored name: two different pairs, one matter.
	if _, err := e.s.AddMatter(sim.MatterSpec{ClientID: "NC", MatterID: "A.B"}); err != nil {
		t.Fatal(err)
	}
	in := "client_id,matter_id\n" +
		m.ClientID + "," + m.MatterID + "\n" + // 2 deleted
		"NOPE,NEVER\n" + // 3 already_absent
		"  ,M-1\n" + // 4 invalid_client_id
		"C-1,\t\n" + // 5 invalid_matter_id (TSV-looking value, CSV file)
		" " + m.ClientID + " ," + m.MatterID + "\n" + // 6 duplicate of 2 after trimming
		sim.ConflictClientID + "," + sim.ConflictMatterID + "\n" + // 7 identity_conflict
		"NC,A.B\n" + // 8 deleted (resolves by pair)
		"NC.A,B\n" + // 9 name_collision (the same matter by stored name)
		sim.LinkedClientID + "," + sim.LinkedMatterID + "\n" + // 10 blocked_by_ethical_wall
		"20917,2022-0114\n" // 11 deleted through the v1 stored name
	plan := matters.NewPlan(read(t, in), 0)
	if plan.Requests() != 1 || plan.RejectedCount() != 3 {
		t.Fatalf("requests %d rejected %d", plan.Requests(), plan.RejectedCount())
	}
	rep := matters.SendDeletions(context.Background(), e.c, plan, matters.Hooks{})
	if rep.Err != nil {
		t.Fatal(rep.Err)
	}
	want := []struct {
		line int
		res  matters.Result
		code string
	}{
		{2, "deleted", ""}, {3, "already_absent", ""}, {4, "error", "invalid_client_id"},
		{5, "error", "invalid_matter_id"}, {6, "error", "duplicate_pair"}, {7, "error", "identity_conflict"},
		{8, "deleted", ""}, {9, "error", "name_collision"}, {10, "error", "blocked_by_ethical_wall"},
		{11, "deleted", ""},
	}
	if len(rep.Outcomes) != len(want) {
		t.Fatalf("%d outcomes, want %d", len(rep.Outcomes), len(want))
	}
	for i, w := range want {
		o := rep.Outcomes[i]
		if o.Line != w.line || o.Result != w.res || o.Code != w.code {
			t.Errorf("outcome %d = %+v, want line %d %s %s", i, o, w.line, w.res, w.code)
		}
		if o.Result == "error" && o.Detail == "" {
			t.Errorf("line %d: error without detail", o.Line)
		}
	}
	if got := e.requests.Load(); got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
	// The client's own verdicts agree with the service's reading of the
	// same raw pairs.
	res, err := e.c.DeleteMatters(context.Background(), []api.MatterPair{
		{ClientID: "X", MatterID: "Y"}, {ClientID: "  ", MatterID: "M-1"}, {ClientID: "C-1", MatterID: "\t"}, {ClientID: " X ", MatterID: "Y"}})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, e := range res.Errors {
		codes = append(codes, e.Error)
	}
	if strings.Join(codes, ",") != "invalid_client_id,invalid_matter_id,duplicate_pair" {
		t.Errorf("service codes %v differ from the client's", codes)
	}
}

// A repeat that lands in a later request is still duplicate_pair and is
// never sent (the service, seeing requests apart, would say already_absent).
func TestCrossBatchDuplicate(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 1, NoRateLimit: true}, api.Limits{Matters: -1})
	var b strings.Builder
	for i := range api.MaxPairs {
		b.WriteString("C-" + itoa(i) + ",M\n")
	}
	b.WriteString(" C-7 ,M\n") // line 10001, after the first request is full
	plan := matters.NewPlan(read(t, b.String()), 0)
	if plan.Requests() != 1 {
		t.Fatalf("requests = %d, want 1 (the repeat is not sent)", plan.Requests())
	}
	rep := matters.SendDeletions(context.Background(), e.c, plan, matters.Hooks{})
	o := result(rep, 10001)
	if o.Result != "error" || o.Code != "duplicate_pair" || !strings.Contains(o.Detail, "line 8") || o.Request != 0 {
		t.Fatalf("line 10001 = %+v", o)
	}
	if e.requests.Load() != 1 {
		t.Errorf("requests = %d", e.requests.Load())
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}
