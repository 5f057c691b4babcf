package access

import (
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

func TestPlan(t *testing.T) {
	p := func(id, upd, state string) store.AccessProject {
		return store.AccessProject{ID: id, Name: id, UpdatedAt: upd, State: state}
	}
	listed := []store.AccessProject{p("a", "1", ""), p("b", "2", ""), p("c", "3", ""), p("d", "", ""), p("e", "5", ""), p("a", "1", "")}
	current := []store.AccessProject{p("a", "1", store.AccessRead), p("b", "1", store.AccessRead), p("e", "5", store.AccessPending), p("gone", "9", store.AccessRead)}
	last := []store.AccessProject{p("a", "1", store.AccessRead), p("b", "2", store.AccessRead), p("c", "3", store.AccessRead), p("d", "", store.AccessRead), p("e", "4", store.AccessRead)}
	pending, carry, drop := Plan(listed, current, last)
	ids := func(ps []store.AccessProject) (out []string) {
		for _, x := range ps {
			out = append(out, x.ID)
		}
		return out
	}
	// a: kept (read, same time); b: read at another time, carried from
	// last where the time matches; c: carried; d: no time, read; e:
	// pending and moved since last, read; gone: dropped.
	if got := ids(pending); !slices.Equal(got, []string{"d", "e"}) {
		t.Errorf("pending %v", got)
	}
	if got := ids(carry); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("carry %v", got)
	}
	if !slices.Equal(drop, []string{"gone"}) {
		t.Errorf("drop %v", drop)
	}
	if pending, carry, drop := Plan(listed[:3], nil, nil); len(pending) != 3 || carry != nil || drop != nil {
		t.Errorf("first crawl: everything pending, got %v %v %v", pending, carry, drop)
	}
}

func TestETA(t *testing.T) {
	full := api.BudgetStatus{Limit: 10, Remaining: 10}
	for _, tc := range []struct {
		name      string
		remaining int
		b         api.BudgetStatus
		read      int
		elapsed   time.Duration
		want      time.Duration
	}{
		{"done", 0, full, 10, time.Minute, 0},
		{"within the budget left", 8, full, 0, 0, 0},
		{"300 under 10 a minute", 310, full, 0, 0, 30 * time.Minute},
		{"budget spent", 20, api.BudgetStatus{Limit: 10}, 0, 0, 2 * time.Minute},
		{"observed pace slower", 10, full, 5, 5 * time.Minute, 10 * time.Minute},
		{"observed pace faster than the budget allows", 110, full, 10, time.Second, 10 * time.Minute},
		{"unlimited, no pace yet", 50, api.BudgetStatus{Unlimited: true}, 2, time.Second, 0},
	} {
		if got := ETA(tc.remaining, tc.b, tc.read, tc.elapsed); got != tc.want {
			t.Errorf("%s: ETA %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestDiff(t *testing.T) {
	g := func(p, e, lvl string) store.AccessGrant {
		return store.AccessGrant{ProjectID: p, ProjectName: p, Email: e, AccessLevel: lvl}
	}
	old := []store.AccessGrant{g("p1", "a@x", "READ"), g("p1", "b@x", "MANAGE"), g("p2", "a@x", "READ"), g("p3", "c@x", "READ")}
	new := []store.AccessGrant{g("p1", "A@x", "READ"), g("p1", "b@x", "READ"), g("p2", "a@x", "MANAGE"), g("p3", "d@x", "MANAGE")}
	got := Diff(old, new)
	want := []Change{
		{Kind: Changed, Email: "a@x", ProjectID: "p2", ProjectName: "p2", From: "READ", To: "MANAGE"},
		{Kind: Changed, Email: "b@x", ProjectID: "p1", ProjectName: "p1", From: "MANAGE", To: "READ"},
		{Kind: Lost, Email: "c@x", ProjectID: "p3", ProjectName: "p3", From: "READ"},
		{Kind: Gained, Email: "d@x", ProjectID: "p3", ProjectName: "p3", To: "MANAGE"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Diff:\n got %v\nwant %v", got, want)
	}
	if d := Diff(old, old); len(d) != 0 {
		t.Fatalf("a snapshot against itself: %v", d)
	}
}

func TestGrantsOfKeepsTheHigherLevel(t *testing.T) {
	got := grantsOf(store.AccessProject{ID: "p", Name: "P"}, []api.ProjectUser{
		{UserID: "1", Email: "a@x", AccessLevel: "READ"}, {UserID: "1", Email: "A@x ", AccessLevel: "MANAGE"},
		{UserID: "2", Email: "b@x", AccessLevel: "MANAGE"}, {UserID: "2", Email: "b@x", AccessLevel: "READ"},
	})
	if len(got) != 2 || got[0].AccessLevel != "MANAGE" || got[1].AccessLevel != "MANAGE" {
		t.Fatalf("grantsOf: %+v", got)
	}
}
