package audit

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

func entry(i int, typ string) api.AuditEntry {
	return api.AuditEntry{
		ID:        fmt.Sprintf("id-%06d", i),
		Timestamp: api.Time{Time: time.Date(2025, 1, 23, 18, 0, i%60, 0, time.UTC)},
		Type:      api.AuditType(typ),
		User:      "a@example.com",
		IP:        "10.0.0.1",
	}
}

func mkPage(from, n int, typ string) []api.AuditEntry {
	out := make([]api.AuditEntry, n)
	for i := range out {
		out[i] = entry(from+i, typ)
	}
	return out
}

func TestPagerSequence(t *testing.T) {
	p := newPager("")
	req, ok := p.next(0)
	if !ok || !req.Earliest {
		t.Fatalf("first request = %+v %v, want earliest", req, ok)
	}
	p.begin()
	if _, ok := p.next(0); ok {
		t.Fatal("second fetch allowed while one is in flight")
	}
	first := entry(0, "auth:login")
	p.gotEarliest(&first)
	// One entry, cursor at 0: near the end, so the next page is due.
	req, ok = p.next(0)
	if !ok || req.Earliest || req.From != "id-000000" {
		t.Fatalf("request = %+v %v, want after id-000000", req, ok)
	}
	p.begin()
	if added := p.gotPage(mkPage(1, pageSize, "auth:login")); added != pageSize {
		t.Fatalf("added %d", added)
	}
	// Cursor far from the end: nothing to fetch.
	if _, ok := p.next(10); ok {
		t.Error("fetch requested with the cursor far from the end")
	}
	req, ok = p.next(len(p.entries) - nearEnd)
	if !ok || req.From != fmt.Sprintf("id-%06d", pageSize) {
		t.Fatalf("near end request = %+v %v", req, ok)
	}
	p.begin()
	p.gotPage(mkPage(pageSize+1, 3, "auth:login")) // short page: the end
	if !p.done {
		t.Error("short page did not end paging")
	}
	if _, ok := p.next(len(p.entries)); ok {
		t.Error("fetch requested after the end")
	}
	if len(p.entries) != pageSize+4 {
		t.Errorf("entries = %d", len(p.entries))
	}
}

func TestPagerEmptyPageEnds(t *testing.T) {
	p := newPager("")
	first := entry(0, "x")
	p.gotEarliest(&first)
	p.gotPage(nil)
	if !p.done {
		t.Error("empty page did not end paging")
	}
}

func TestPagerNotFoundIsEmptyState(t *testing.T) {
	p := newPager("auth:login")
	p.begin()
	p.gotEarliest(nil)
	if !p.empty || !p.done || len(p.entries) != 0 {
		t.Errorf("pager = %+v", p)
	}
}

func TestPagerFiltersLaterPagesClientSide(t *testing.T) {
	p := newPager("auth:login")
	first := entry(0, "auth:login")
	p.gotEarliest(&first)
	mixed := mkPage(1, pageSize, "admin:fetch_workspace_users")
	mixed[5].Type, mixed[9].Type = "auth:login", "auth:login"
	if added := p.gotPage(mixed); added != 2 {
		t.Errorf("added %d, want 2", added)
	}
	// The cursor advanced over the whole page, not just the kept entries.
	if p.lastID != mixed[len(mixed)-1].ID {
		t.Errorf("lastID = %s", p.lastID)
	}
	if got := observedTypes(p.types); len(got) != 2 {
		t.Errorf("observed types = %v", got)
	}
}

func TestPagerStopsOnPageWithoutIDs(t *testing.T) {
	p := newPager("")
	first := entry(0, "x")
	p.gotEarliest(&first)
	bad := make([]api.AuditEntry, pageSize)
	p.gotPage(bad)
	if !p.done {
		t.Error("a full page without ids would be re-requested forever")
	}
}

func TestNextType(t *testing.T) {
	types := []string{"a", "b", "c"}
	cases := []struct{ cur, want string }{{"", "a"}, {"a", "b"}, {"c", ""}, {"gone", ""}}
	for _, c := range cases {
		if got := nextType(types, c.cur); got != c.want {
			t.Errorf("nextType(%q) = %q, want %q", c.cur, got, c.want)
		}
	}
	if got := nextType(nil, "a"); got != "" {
		t.Errorf("nextType(nil) = %q", got)
	}
}

func TestBuildRowSanitises(t *testing.T) {
	e := entry(1, "auth:login\x1b[2J")
	e.User = "evil\x1b]52;c;ZXZpbA==\x07@example.com"
	r := buildRow(&e)
	if r[colType] != "auth:login" || r[colUser] != "evil@example.com" || r[colTime] != "2025-01-23 18:00:01" {
		t.Errorf("row = %q", r)
	}
}

func TestDetailTextIndentsData(t *testing.T) {
	e := entry(1, "admin:fetch_workspace_users")
	e.Timestamp.Raw = "2025-01-23T18:00:01.000000"
	e.UserAgent = "curl/8"
	e.Data = json.RawMessage(`{"ip":"10.0.0.1","len_fetched_users":3,"site":"us","note":"\u001b[2Jx"}`)
	got := detailText(&e)
	for _, want := range []string{
		"id:         id-000001\n",
		"type:       admin:fetch_workspace_users\n",
		"user_agent: curl/8\n",
		"data:\n  {\n    \"ip\": \"10.0.0.1\",\n    \"len_fetched_users\": 3,\n",
		"sent as 2025-01-23T18:00:01.000000",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("detail lacks %q:\n%s", want, got)
		}
	}
	if strings.ContainsRune(got, 0x1b) {
		t.Errorf("detail contains a raw escape:\n%q", got)
	}
}

func TestIndentDataInvalidAndEmpty(t *testing.T) {
	if got := indentData(nil); got != "  (none)\n" {
		t.Errorf("nil = %q", got)
	}
	if got := indentData(json.RawMessage("null")); got != "  (none)\n" {
		t.Errorf("null = %q", got)
	}
	if got := indentData(json.RawMessage("{bad\x1b[2J")); strings.ContainsRune(got, 0x1b) || !strings.Contains(got, "{bad") {
		t.Errorf("invalid = %q", got)
	}
}
