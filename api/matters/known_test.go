package matters_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// The standing a dry run reads is what the deletion then answers: exists
// is deleted, already_deleted and unknown are already_absent, conflict is
// identity_conflict; for v2 pairs, a v1 name reached by the delimiter,
// and pairs nobody ever made.
func TestTheStandingIsWhatTheDeletionAnswers(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 3}, api.Limits{Matters: -1})
	var deleted sim.MatterInfo
	for _, m := range e.s.Matters() {
		if m.Deleted && !m.V1 {
			deleted = m
		}
	}
	lv := live(t, e.s, 3)
	csv := "client_id,matter_id\n"
	for _, m := range lv {
		csv += m.ClientID + "," + m.MatterID + "\n"
	}
	csv += deleted.ClientID + "," + deleted.MatterID + "\n"
	csv += "20917,2022-0114\n"                                      // the v1-only stored name, reached by "."
	csv += sim.ConflictClientID + "," + sim.ConflictMatterID + "\n" // pair and name point at two matters
	csv += "NOBODY,0001\n 99999 , 1999-0001 \n"
	plan := matters.NewPlan(read(t, csv), 0)
	before := e.requests.Load()
	k, err := matters.Look(context.Background(), e.c, plan)
	if err != nil {
		t.Fatal(err)
	}
	if n := e.requests.Load() - before; n != 1 {
		t.Errorf("Look made %d requests, want the one listing", n)
	}
	want := []string{"exists", "exists", "exists", "already_deleted", "exists", "conflict", "unknown", "unknown"}
	for i, w := range want {
		if got := k.At(i); got.Standing != w {
			t.Errorf("line %d (%s, %s): %s, want %s", got.Line, got.ClientID, got.MatterID, got.Standing, w)
		}
	}
	if k.Count(matters.StandingUnknown) != 2 || k.Count(matters.StandingExists) != 4 || k.Listed < 100 || k.Delimiter != "." {
		t.Errorf("counts: %d unknown, %d exist, %d listed, delimiter %q", k.Count(matters.StandingUnknown), k.Count(matters.StandingExists), k.Listed, k.Delimiter)
	}
	if ps := k.At(3); ps.DeletedAt.IsZero() || ps.Name != deleted.StoredName {
		t.Errorf("the deleted pair's record: %+v", ps)
	}

	// What the deletion answers, pair for pair.
	res, err := e.c.DeleteMatters(context.Background(), pairsOf(plan))
	if err != nil {
		t.Fatal(err)
	}
	answer := map[string]string{}
	for _, p := range res.Deleted {
		answer[p.ClientID+"/"+p.MatterID] = "exists"
	}
	for _, p := range res.AlreadyAbsent {
		answer[p.ClientID+"/"+p.MatterID] = "absent"
	}
	for _, p := range res.Errors {
		answer[strings.TrimSpace(p.ClientID)+"/"+strings.TrimSpace(p.MatterID)] = p.Error
	}
	for i := range want {
		ps := k.At(i)
		got := answer[strings.TrimSpace(ps.ClientID)+"/"+strings.TrimSpace(ps.MatterID)]
		exp := map[string]string{"exists": "exists", "already_deleted": "absent", "unknown": "absent", "conflict": "identity_conflict"}[ps.Standing]
		if got != exp {
			t.Errorf("line %d: the dry run said %s, the deletion answered %q", ps.Line, ps.Standing, got)
		}
	}
}

// A list that does not state which pair each record is (the public
// record: no name_delimiter) is refused, not guessed at.
func TestAListWithoutTheMappingIsRefused(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 3}, api.Limits{Matters: -1})
	e.intercept = func(_ int64, w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/api/v1/client_matters" {
			return false
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"id":"a1","name":"10000.2024-0001","user_email":"x@y","created_at":"2024-01-01T00:00:00"}]`)
		return true
	}
	_, err := matters.Look(context.Background(), e.c, matters.NewPlan(read(t, "c,m\n10000,2024-0001\n"), 0))
	if !errors.Is(err, matters.ErrNoMapping) || !strings.Contains(err.Error(), "not documented") {
		t.Errorf("a list without the mapping: %v", err)
	}
}

// The case: 10,000 pairs of which a few exist. The standing of
// every one comes from one listing, before anything is sent, in well under
// a second here (the figure is logged: go test -v -run TestTenThousandPairs).
func TestTenThousandPairsAreKnownBeforeAnythingIsSent(t *testing.T) {
	e := newEnv(t, "admin", sim.Options{Seed: 3}, api.Limits{})
	lv := live(t, e.s, 50)
	var b strings.Builder
	b.WriteString("client_id,matter_id\n")
	for _, m := range lv {
		b.WriteString(m.ClientID + "," + m.MatterID + "\n")
	}
	for i := len(lv); i < 10_000; i++ {
		fmt.Fprintf(&b, "C%05d,M-%05d\n", i, i)
	}
	plan := matters.NewPlan(read(t, b.String()), 0)
	var methods []string
	e.intercept = func(_ int64, _ http.ResponseWriter, r *http.Request) bool {
		methods = append(methods, r.Method+" "+r.URL.Path)
		return false
	}
	start := time.Now()
	k, err := matters.Look(context.Background(), e.c, plan)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if len(methods) != 1 || methods[0] != "GET /api/v1/client_matters" {
		t.Errorf("requests: %v, want the listing alone", methods)
	}
	if k.Len() != 10_000 || k.Count(matters.StandingUnknown) != 10_000-len(lv) || k.Count(matters.StandingExists) != len(lv) {
		t.Errorf("%d known, %d unknown, %d exist", k.Len(), k.Count(matters.StandingUnknown), k.Count(matters.StandingExists))
	}
	if ps := k.At(9_999); ps.Standing != "unknown" || ps.ClientID != "C09999" || ps.Line != 10_001 {
		t.Errorf("the last pair: %+v", ps)
	}
	t.Logf("10,000 pairs against %d listed matters: %v", k.Listed, took)
}

func pairsOf(p *matters.Plan) []api.MatterPair {
	out := make([]api.MatterPair, 0, len(p.Send))
	for _, i := range p.Send {
		out = append(out, api.MatterPair{ClientID: p.Pairs[i].ClientID, MatterID: p.Pairs[i].MatterID})
	}
	return out
}
