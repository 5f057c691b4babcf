package sim_test

import (
	"net/url"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

type auditLog struct {
	ID        string         `json:"id"`
	Timestamp string         `json:"timestamp"`
	Type      string         `json:"type"`
	User      string         `json:"user"`
	IP        string         `json:"ip"`
	UserAgent string         `json:"user_agent"`
	Data      map[string]any `json:"data"`
}

func (h *harness) earliest(logType string) (auditLog, int) {
	h.t.Helper()
	r := h.get("/api/v1/logs/audit/earliest?log_type=" + url.QueryEscape(logType))
	var out struct {
		Log auditLog `json:"log"`
	}
	if r.status == 200 {
		r.json(h.t, &out)
	}
	return out.Log, r.status
}

func (h *harness) auditPage(from string, take string) ([]auditLog, int) {
	h.t.Helper()
	r := h.get("/api/v1/logs/audit?from=" + url.QueryEscape(from) + "&take=" + take)
	var out []auditLog
	if r.status == 200 {
		r.json(h.t, &out)
	}
	return out, r.status
}

func TestAuditEarliestAndPaging(t *testing.T) {
	h := newHarness(t)
	first, st := h.earliest("")
	if st != 200 || !reNaive.MatchString(first.Timestamp) || first.User == "" || first.IP == "" || first.Data["site"] == nil {
		t.Fatalf("%d %+v", st, first)
	}
	// Page through everything after the earliest with take=97.
	all := []auditLog{first}
	types := map[string]int{}
	reads := 1
	for {
		page, st := h.auditPage(all[len(all)-1].ID, "97")
		reads++
		if st != 200 {
			t.Fatalf("status %d", st)
		}
		all = append(all, page...)
		if len(page) < 97 {
			break
		}
	}
	// The 500 seeded entries, then one api:audit_log_fetch per read: each
	// read writes its entry before it is answered, so the walk sees them all.
	if len(all) != 500+reads || all[499].Type == sim.AuditAPIFetch || all[500].Type != sim.AuditAPIFetch {
		t.Fatalf("walked %d entries in %d reads", len(all), reads)
	}
	for i, e := range all {
		types[e.Type]++
		if i > 0 && (e.ID <= all[i-1].ID || e.Timestamp <= all[i-1].Timestamp) {
			t.Fatalf("not ascending at %d: %s %s", i, all[i-1].ID, e.ID)
		}
		if e.Type == sim.AuditFetchUsers {
			for _, k := range []string{"ip", "len_fetched_users", "site", "user_agent"} {
				if _, ok := e.Data[k]; !ok {
					t.Fatalf("fetch_workspace_users data lacks %s: %+v", k, e.Data)
				}
			}
		}
	}
	for _, typ := range []string{sim.AuditFetchUsers, sim.AuditLogin, sim.AuditWordDraft, sim.AuditOutlookAsk} {
		if types[typ] == 0 {
			t.Fatalf("no %s entries", typ)
		}
		e, st := h.earliest(typ)
		if st != 200 || e.Type != typ {
			t.Fatalf("earliest %s: %d %+v", typ, st, e)
		}
		for _, x := range all {
			if x.Type == typ {
				if x.ID != e.ID {
					t.Fatalf("earliest %s is %s, first in walk is %s", typ, e.ID, x.ID)
				}
				break
			}
		}
	}
	if _, st := h.earliest("user:nothing_like_this"); st != 404 {
		t.Fatalf("unknown type: %d", st)
	}

	// Strictly after from; take bounds; from must be a UUID.
	page, _ := h.auditPage(all[10].ID, "3")
	if len(page) != 3 || page[0].ID != all[11].ID {
		t.Fatalf("%+v", page)
	}
	// After the last walked entry come only the entries of the reads since:
	// five earliest, one page and this one.
	last, _ := h.auditPage(all[len(all)-1].ID, "1000")
	if len(last) != 7 {
		t.Fatalf("after the last entry: %d", len(last))
	}
	for _, e := range last {
		if e.Type != sim.AuditAPIFetch || e.User != h.sim.Tokens()[0].UserEmail {
			t.Fatalf("after the last entry: %+v", e)
		}
	}
	// An unknown but well-formed id is a cursor: entries after it in id order
	// (all walked so far, the seven above and this read's own).
	if before, st := h.auditPage("00000000-0000-7000-8000-000000000000", "1000"); st != 200 || len(before) != len(all)+8 {
		t.Fatalf("zero cursor: %d %d", st, len(before))
	}
	for _, c := range []struct{ from, take string }{
		{first.ID, "0"}, {first.ID, "1001"}, {first.ID, "x"}, {first.ID, ""}, {"not-a-uuid", "5"}, {"", "5"},
	} {
		if _, st := h.auditPage(c.from, c.take); st != 400 {
			t.Fatalf("from=%q take=%q: %d", c.from, c.take, st)
		}
	}
	if _, st := h.auditPage(first.ID, "1000"); st != 200 {
		t.Fatal("take=1000 must be allowed")
	}
}
