package cli

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
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
