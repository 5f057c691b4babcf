package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRecycleBinNewestDeletionFirst: the headless table shows the console's
// order, newest deletion first, even when the service sends another order.
func TestRecycleBinNewestDeletionFirst(t *testing.T) {
	entry := func(name, deleted string) string {
		return fmt.Sprintf(`{"id":"e-%s","resource_id":"r-%s","resource_type":"vault_project","deleted_at":"%s",`+
			`"recycle_bin_purged_scheduled_at":"2030-01-01T00:00:00Z","vault_project":{"id":"p-%s","name":"%s","files_count":1}}`,
			name, name, deleted, name, name)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"items":[%s,%s,%s,%s],"total":4}`,
			entry("middle", "2026-05-01T10:00:00Z"), entry("newest", "2026-09-01T10:00:00Z"),
			entry("oldest", "2025-01-01T10:00:00Z"), entry("undated", ""))
	})
	r := runAgainst(t, h, "recycle-bin")
	if r.code != 0 {
		t.Fatalf("recycle-bin: %d %s", r.code, r.stderr)
	}
	names := regexp.MustCompile(`(?m)^(middle|newest|oldest|undated)\b`).FindAllString(r.stdout, -1)
	if want := []string{"newest", "middle", "oldest", "undated"}; !slices.Equal(names, want) {
		t.Errorf("order %v, want %v:\n%s", names, want, r.stdout)
	}
	if !strings.Contains(r.stdout, "4 of 4 shown") {
		t.Errorf("count line missing:\n%s", r.stdout)
	}
}

// purgeBin serves a bin whose purges are scheduled relative to now: one
// overdue, one in 3 hours, one in 5 days, one in 20 days, one undated.
func purgeBin(now time.Time) http.Handler {
	entry := func(name string, purge time.Duration) string {
		at := ""
		if purge != 0 {
			at = now.Add(purge).UTC().Format(time.RFC3339)
		}
		return fmt.Sprintf(`{"id":"e-%s","resource_id":"r-%s","resource_type":"vault_project","deleted_at":"2026-01-01T10:00:00Z",`+
			`"deleted_by_user_email":"%s@firm.example","recycle_bin_purged_scheduled_at":"%s","vault_project":{"id":"p-%s","name":"%s","files_count":1}}`,
			name, name, name, at, name, name)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"items":[%s,%s,%s,%s,%s],"total":5}`, entry("later", 20*24*time.Hour), entry("week", 5*24*time.Hour),
			entry("late", -2*time.Hour), entry("undated", 0), entry("today", 3*time.Hour))
	})
}

// TestPurgingWithin: only entries purged within the window are listed,
// soonest first, the overdue one marked; the others are left out.
func TestPurgingWithin(t *testing.T) {
	h := purgeBin(time.Now())
	r := runAgainst(t, h, "recycle-bin", "--purging-within", "7d")
	names := regexp.MustCompile(`(?m)^(later|week|late|undated|today)\b`).FindAllString(r.stdout, -1)
	if r.code != 0 || !slices.Equal(names, []string{"late", "today", "week"}) {
		t.Fatalf("%d %v, want late, today, week:\n%s%s", r.code, names, r.stdout, r.stderr)
	}
	if !regexp.MustCompile(`(?m)^late .* overdue `).MatchString(r.stdout) || !strings.Contains(r.stdout, "3 of 5 purge within 7d (1 overdue)") {
		t.Errorf("overdue not marked, or count line:\n%s", r.stdout)
	}
	r = runAgainst(t, h, "recycle-bin", "--purging-within", "1d", "--json")
	var got struct {
		Items []struct{ ID string } // the listing's one array
	}
	if json.Unmarshal([]byte(r.stdout), &got.Items) != nil || len(got.Items) != 2 || got.Items[0].ID != "e-late" || got.Items[1].ID != "e-today" {
		t.Errorf("--json 1d: %q", r.stdout)
	}
	for _, bad := range []string{"0d", "week", "-3h", "7"} {
		if r := runAgainst(t, h, "recycle-bin", "--purging-within", bad); r.code != ExitUsage || !strings.Contains(r.stderr, "--purging-within") {
			t.Errorf("%q: %d %q", bad, r.code, r.stderr)
		}
	}
}

// TestPurgeCheck is the monitoring probe: a Nagios-style line first, the
// entries after it, exit 3 when something purges within the window and 0
// when nothing does; a failure says UNKNOWN and exits 1.
func TestPurgeCheck(t *testing.T) {
	h := purgeBin(time.Now())
	r := runAgainst(t, h, "recycle-bin", "--purging-within", "7d", "--check")
	first, rest, _ := strings.Cut(r.stdout, "\n")
	if r.code != ExitPartial || first != "PURGE WARNING - 3 projects purge within 7d (1 overdue) | purging=3;;; overdue=1;;;" {
		t.Fatalf("%d %q\n%s", r.code, first, r.stderr)
	}
	if !strings.HasPrefix(rest, "NAME") || !strings.Contains(rest, "today") || strings.Contains(rest, "later") {
		t.Errorf("entries after the summary:\n%s", rest)
	}
	r = runAgainst(t, h, "recycle-bin", "--purging-within", "1h", "--check")
	if first, _, _ = strings.Cut(r.stdout, "\n"); r.code != ExitPartial || first != "PURGE WARNING - 1 project purges within 1h (1 overdue) | purging=1;;; overdue=1;;;" {
		t.Errorf("1h: %d %q", r.code, first)
	}
	quiet := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"items":[],"total":0}`) })
	r = runAgainst(t, quiet, "recycle-bin", "--check")
	if first, _, _ = strings.Cut(r.stdout, "\n"); r.code != ExitOK || first != "PURGE OK - no project purges within 7d | purging=0;;; overdue=0;;;" {
		t.Errorf("empty bin: %d %q", r.code, first)
	}
	down := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) })
	r = runAgainst(t, down, "recycle-bin", "--check")
	if r.code != ExitError || !strings.HasPrefix(r.stdout, "PURGE UNKNOWN - the recycle bin could not be read: ") {
		t.Errorf("refused: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r = runAgainst(t, h, "recycle-bin", "--check", "--csv"); r.code != ExitUsage {
		t.Errorf("--check --csv: %d %q", r.code, r.stderr)
	}
}
