package sim_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

func (h *harness) auditOne(path, logType string) (auditLog, int) {
	h.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	if logType != "" {
		path += sep + "log_type=" + url.QueryEscape(logType)
	}
	r := h.get(path)
	var out struct {
		Log auditLog `json:"log"`
	}
	if r.status == 200 {
		r.json(h.t, &out)
	}
	return out.Log, r.status
}

func (h *harness) latest(logType string) (auditLog, int) {
	return h.auditOne("/api/v1/logs/audit/latest", logType)
}

func (h *harness) search(t time.Time, logType string) (auditLog, int) {
	return h.auditOne(fmt.Sprintf("/api/v1/logs/audit/search?time=%d", t.Unix()), logType)
}

// walk reads the whole log from earliest through the listing (each read adds
// an entry of its own, which the walk also collects).
func (h *harness) walk() []auditLog {
	h.t.Helper()
	first, st := h.earliest("")
	if st != 200 {
		h.t.Fatalf("earliest: %d", st)
	}
	all := []auditLog{first}
	for {
		page, st := h.auditPage(all[len(all)-1].ID, "1000")
		if st != 200 {
			h.t.Fatalf("page: %d", st)
		}
		all = append(all, page...)
		if len(page) < 1000 {
			return all
		}
	}
}

func parseNaive(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse("2006-01-02T15:04:05.999999", s)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestAuditLatestAndSearch(t *testing.T) {
	h := newHarness(t)
	adminEmail := h.sim.Tokens()[0].UserEmail

	// latest without a type is the caller's own read: reading writes first.
	e, st := h.latest("")
	if st != 200 || e.Type != sim.AuditAPIFetch || e.User != adminEmail || !reNaive.MatchString(e.Timestamp) {
		t.Fatalf("latest: %d %+v", st, e)
	}
	all := h.walk()
	var lastLogin auditLog
	for _, x := range all {
		if x.Type == sim.AuditLogin {
			lastLogin = x
		}
	}
	if got, st := h.latest(sim.AuditLogin); st != 200 || got.ID != lastLogin.ID {
		t.Fatalf("latest login: %d %s, want %s", st, got.ID, lastLogin.ID)
	}
	if _, st := h.latest("user:nothing_like_this"); st != 404 {
		t.Fatalf("latest of an unknown type: %d", st)
	}

	// Seeded data spans months, some of it older than the search's one-year reach.
	oldest := parseNaive(t, all[0].Timestamp)
	if age := pinned.Sub(oldest); age < 366*24*time.Hour {
		t.Fatalf("oldest entry is only %v old", age)
	}
	var today int
	for _, x := range all {
		if pinned.Sub(parseNaive(t, x.Timestamp)) < 24*time.Hour && !strings.HasPrefix(x.Type, "api:") {
			today++
		}
	}
	if today < 3 {
		t.Fatalf("%d user entries in the last 24 hours", today)
	}

	// search: the first entry at or after the time, with and without a type.
	for _, back := range []time.Duration{200 * 24 * time.Hour, 20 * 24 * time.Hour, 3 * time.Hour} {
		at := pinned.Add(-back)
		var want, wantLogin *auditLog
		for i := range all {
			ts := parseNaive(t, all[i].Timestamp)
			if ts.Before(at.Truncate(time.Second)) {
				continue
			}
			if want == nil {
				want = &all[i]
			}
			if wantLogin == nil && all[i].Type == sim.AuditLogin {
				wantLogin = &all[i]
			}
		}
		got, st := h.search(at, "")
		if st != 200 || want == nil || got.ID != want.ID {
			t.Fatalf("search %v back: %d %s, want %+v", back, st, got.ID, want)
		}
		got, st = h.search(at, sim.AuditLogin)
		if st != 200 || wantLogin == nil || got.ID != wantLogin.ID {
			t.Fatalf("search %v back for logins: %d %s, want %+v", back, st, got.ID, wantLogin)
		}
	}
	// Exactly at an entry's second: that entry (at or after).
	mid := all[len(all)/2]
	at := parseNaive(t, mid.Timestamp).Truncate(time.Second)
	if got, st := h.search(at, ""); st != 200 || parseNaive(t, got.Timestamp).Before(at) || got.ID > mid.ID {
		t.Fatalf("search at %v: %d %+v (entry %s)", at, st, got, mid.ID)
	}
	// The future has nothing yet; more than a year back is refused.
	if _, st := h.search(pinned.Add(time.Hour), ""); st != 404 {
		t.Fatalf("search in the future: %d", st)
	}
	if _, st := h.search(pinned.Add(-366*24*time.Hour), ""); st != 400 {
		t.Fatalf("search beyond a year: %d", st)
	}
	if _, st := h.search(pinned.Add(-364*24*time.Hour), ""); st != 200 {
		t.Fatalf("search just inside a year: %d", st)
	}
	for _, q := range []string{"", "?time=", "?time=abc", "?time=1.5", "?time=-5"} {
		if r := h.get("/api/v1/logs/audit/search" + q); r.status != 400 {
			t.Fatalf("search%s: %d %s", q, r.status, r.body)
		}
	}
	// The reference's curl example has a trailing slash.
	if r := h.get(fmt.Sprintf("/api/v1/logs/audit/search/?time=%d", pinned.Add(-time.Hour).Unix())); r.status != 200 {
		t.Fatalf("search/ with a slash: %d", r.status)
	}
	// log_type on the listing too.
	page, st := h.auditPage(all[0].ID, "1000&log_type="+url.QueryEscape(sim.AuditOutlookAsk))
	if st != 200 || len(page) == 0 {
		t.Fatalf("typed page: %d %d", st, len(page))
	}
	for _, x := range page {
		if x.Type != sim.AuditOutlookAsk {
			t.Fatalf("typed page holds %s", x.Type)
		}
	}
}

// TestAuditReadsWriteEntries: every authenticated audit read appends one
// api:audit_log_fetch entry of the token's user, in id and time order, even
// many at one instant of the (pinned) clock; a refused read appends nothing.
func TestAuditReadsWriteEntries(t *testing.T) {
	h := newHarness(t)
	adminEmail := h.sim.Tokens()[0].UserEmail
	before := h.walk()
	reads := 0
	for i := 0; i < 50; i++ {
		h.latest("")
		reads++
	}
	if r := h.do("GET", "/api/v1/logs/audit/latest", h.sim.Token("no-audit"), nil); r.status != 403 {
		t.Fatalf("no-audit: %d", r.status)
	}
	after := h.walk()
	// The first walk's reads: earliest and each page; the second walk's
	// earliest and pages are in the log as well, except those after the
	// second walk's last page.
	added := after[len(before):]
	fetches := 0
	for _, x := range added {
		if x.Type != sim.AuditAPIFetch || x.User != adminEmail {
			t.Fatalf("unexpected entry %+v", x)
		}
		fetches++
	}
	if want := reads + 1 + 1; fetches != want { // 50 latest, the second walk's earliest, its one page
		t.Fatalf("%d fetch entries, want %d", fetches, want)
	}
	for i := 1; i < len(after); i++ {
		if after[i].ID <= after[i-1].ID || after[i].Timestamp <= after[i-1].Timestamp {
			t.Fatalf("not ascending at %d: %s %s / %s %s", i, after[i-1].ID, after[i-1].Timestamp, after[i].ID, after[i].Timestamp)
		}
	}
}

// TestAPIMutationsAreAudited: the documented api:* types for project
// deletion and matter management, and the simulator's own for uploads.
func TestAPIMutationsAreAudited(t *testing.T) {
	h := newHarness(t)
	adminEmail := h.sim.Tokens()[0].UserEmail
	p := h.projectByName("Bellhaven Shipping — Share Purchase")
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_project/"+p.ID, h.admin(), nil), 200)
	h.deleteMatters(pair{"20917", "2022-0114"})
	h.upsert(pair{"ACME", "M-99"})
	q := h.projectByName("Ironbridge Capital — Refinancing")
	h.uploadOne(q.ID, "evidence.pdf", 1000)
	// A refused mutation is not audited.
	mustStatus(t, h.do("DELETE", "/api/v1/vault/delete_project/"+h.projectByName(sim.ExampleProjectName).ID, h.admin(), nil), 403)

	var got []string
	for _, x := range h.walk() {
		if strings.HasPrefix(x.Type, "api:") && x.Type != sim.AuditAPIFetch {
			if x.User != adminEmail {
				t.Fatalf("%s by %s", x.Type, x.User)
			}
			got = append(got, x.Type)
			if x.Type == sim.AuditAPIDeleteProject && x.Data["project_id"] != p.ID {
				t.Fatalf("delete entry data %+v", x.Data)
			}
		}
	}
	want := []string{sim.AuditAPIDeleteProject, sim.AuditAPIMatters, sim.AuditAPIMatters, sim.AuditAPIUpload}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("api entries %v, want %v", got, want)
	}
}

// TestAuditReadsConcurrentAndRefused: concurrent reads each leave exactly
// one entry, the log stays strictly ordered, and a read refused by the
// rate limit leaves none.
func TestAuditReadsConcurrentAndRefused(t *testing.T) {
	h := newHarness(t, func(o *sim.Options) { o.NoRateLimit = false; o.Limits.Audit = 1000 })
	before := len(h.walk())
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < 10; i++ {
				h.latest("")
			}
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
	after := h.walk()
	// 80 reads, plus the second walk's earliest and its one page.
	if got := len(after) - before; got != 82 {
		t.Fatalf("%d entries added by 82 reads", got)
	}
	for i := 1; i < len(after); i++ {
		if after[i].ID <= after[i-1].ID || after[i].Timestamp <= after[i-1].Timestamp {
			t.Fatalf("not ascending at %d", i)
		}
	}

	lim := newHarness(t, func(o *sim.Options) { o.NoRateLimit = false; o.Limits.Audit = 3 })
	lim.latest("")
	lim.latest("")
	lim.latest("")
	if _, st := lim.latest(""); st != 429 {
		t.Fatalf("fourth read in a minute: %d", st)
	}
	lim.sim.Advance(2 * time.Minute)
	first, _ := lim.earliest("")
	page, _ := lim.auditPage(first.ID, "1000")
	fetches := 0
	for _, x := range page {
		if x.Type == sim.AuditAPIFetch {
			fetches++
		}
	}
	if fetches != 3+2 { // three latest, then earliest and this page; not the refused one
		t.Fatalf("%d fetch entries", fetches)
	}
}
