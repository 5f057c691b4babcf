package audit_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// bigLogRig is the log: 60,000 seeded entries, then one project
// deleted, so api:vault_delete_project is first seen at the very end.
func bigLogRig(t *testing.T) (*rig, store.AuditEntry) {
	t.Helper()
	r := newRig(t, sim.Options{Seed: 1, NoRateLimit: true, AuditEntries: 60000}, nil)
	ctx := context.Background()
	ps, err := r.client.ProjectsPage(ctx, api.ProjectQuery{})
	if err != nil || len(ps.Projects) == 0 {
		t.Fatalf("projects: %v", err)
	}
	if _, err := r.client.DeleteProject(ctx, ps.Projects[0].ID); err != nil {
		t.Fatal(err)
	}
	it, err := r.client.AuditLatest(ctx, audit.TypeDeleteProject)
	if err != nil || it == nil {
		t.Fatalf("the deletion left no entry: %v", err)
	}
	if first, err := r.client.AuditEarliest(ctx, audit.TypeDeleteProject); err != nil || first == nil || first.Value.ID != it.Value.ID {
		t.Fatalf("the deletion is not the type's only entry: %v", err)
	}
	return r, audit.EntryOf(*it)
}

// checkAsked fails unless every audit request in asked carries log_type
// typ (all four endpoints take it) and there are at most most of them.
func checkAsked(t *testing.T, what string, asked []url.URL, typ string, most int) {
	t.Helper()
	var paths, without []string
	for _, u := range asked {
		paths = append(paths, u.Path+"?"+u.RawQuery)
		if u.Query().Get("log_type") != typ {
			without = append(without, u.Path+"?"+u.RawQuery)
		}
	}
	if len(asked) > most {
		t.Errorf("%s: %d audit requests, want at most %d: %.300s", what, len(asked), most, strings.Join(paths, " "))
	}
	if len(without) > 0 {
		t.Errorf("%s: %d of %d requests were sent without log_type=%s, the first %s", what, len(without), len(asked), typ, without[0])
	}
}

// TestTypeFilterIsAskedOfTheService: a type filter is sent as log_type on
// every audit request that takes it (earliest, latest, search, listing),
// so a type first seen at the end of a 60,000-entry log is found in a
// request or two, oldest first and newest first, not by paging the whole
// log and filtering here (61 requests before).
func TestTypeFilterIsAskedOfTheService(t *testing.T) {
	r, planted := bigLogRig(t)
	j := &audit.Job{Svc: r.client}
	now := r.sim.Now()
	for _, tc := range []struct {
		name string
		f    store.AuditFilter
		most int
	}{
		{"oldest first", store.AuditFilter{Type: audit.TypeDeleteProject, Limit: 1}, 3},
		{"since a day, by search", store.AuditFilter{Type: audit.TypeDeleteProject, Since: now.Add(-24 * time.Hour)}, 3},
		{"since two years, from the earliest", store.AuditFilter{Type: audit.TypeDeleteProject, Since: now.Add(-2 * 365 * 24 * time.Hour)}, 3},
	} {
		n := len(r.askedSince(0))
		ids, a := collect(t, j, tc.f)
		if len(ids) != 1 || ids[0] != planted.ID {
			t.Errorf("%s: got %v, want the one deletion %s", tc.name, ids, planted.ID)
		}
		if !a.Service || a.Requests != len(r.askedSince(n)) {
			t.Errorf("%s: the answer says %+v, the service saw %d requests", tc.name, a, len(r.askedSince(n)))
		}
		checkAsked(t, tc.name, r.askedSince(n), audit.TypeDeleteProject, tc.most)
	}
	// The console's windows (Older) ask the same way.
	n := len(r.askedSince(0))
	w, err := j.Older(context.Background(), store.AuditFilter{Type: audit.TypeDeleteProject}, store.AuditPosition{}, 50)
	if err != nil || len(w.Entries) != 1 || w.Entries[0].ID != planted.ID || !w.Start {
		t.Fatalf("Older: %+v, %v", w, err)
	}
	checkAsked(t, "Older", r.askedSince(n), audit.TypeDeleteProject, 40)
}

// TestTypeFilterHoldsWhereTheListingIgnoresIt: one copy of the listing's
// reference shows no log_type, so a service may list every type; the
// answers are the same entries as from one that honours it.
func TestTypeFilterHoldsWhereTheListingIgnoresIt(t *testing.T) {
	s := sim.New(sim.Options{Seed: 5, NoRateLimit: true, AuditEntries: 4000})
	honours := simtest.Start(t, simtest.Options{Server: s})
	ignores := simtest.Start(t, simtest.Options{Server: s, Wrap: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v1/logs/audit" {
				q := r.URL.Query()
				q.Del("log_type")
				r.URL.RawQuery = q.Encode()
			}
			next.ServeHTTP(w, r)
		})
	}})
	now := s.Now()
	for _, f := range []store.AuditFilter{
		{Type: "auth:login", Since: now.Add(-20 * 24 * time.Hour), Until: now.Add(-2 * 24 * time.Hour)},
		{Type: "AUTH:LOGIN", Since: now.Add(-20 * 24 * time.Hour), Until: now.Add(-2 * 24 * time.Hour)},
		{Type: "user:outlook_add_in_ask", Limit: 30},
	} {
		want, _ := collect(t, &audit.Job{Svc: honours.Client}, f)
		got, _ := collect(t, &audit.Job{Svc: ignores.Client}, f)
		if len(want) == 0 {
			t.Fatalf("%+v: no entries to compare", f)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%+v: %d entries where the listing ignores log_type, %d where it honours it", f, len(got), len(want))
		}
	}
}
