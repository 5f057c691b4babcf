package recyclebinview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestInvalidNumbersAndTimesShowAsInvalid: an entry whose file count is
// 10^30, deleted in the year 1 and purged in the year 9999 shows invalid in
// the table (not -9223372036854775808, not "?", not a saturated
// countdown) and its detail keeps the text sent, marked invalid.
func TestInvalidNumbersAndTimesShowAsInvalid(t *testing.T) {
	var rb api.RecycleBin
	body := `{"items":[{"id":"e1","resource_id":"r1","deleted_at":"0001-01-01T00:00:00Z","recycle_bin_purged_scheduled_at":"9999-12-31T23:59:59.999999Z",` +
		`"vault_project":{"name":"Binned","files_count":1000000000000000000000000000000}}],"total":1}`
	if err := json.Unmarshal([]byte(body), &rb); err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(newBinSet(&rb), nil, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	for _, col := range []int{ColFiles, ColDeletedAt, ColPurgeIn} {
		if got := rows.Text(0, col); got != "invalid" {
			t.Errorf("column %d shows %q, want invalid", col, got)
		}
	}
	detail := map[string]string{}
	for _, f := range DetailFields(rb.Items[0]) {
		detail[f[0]] = f[1]
	}
	if d := detail["deleted_at"]; d != "0001-01-01T00:00:00Z (invalid)" {
		t.Errorf("detail deleted_at %q", d)
	}
	if d := detail["recycle_bin_purged_scheduled_at"]; !strings.HasSuffix(d, "(invalid)") {
		t.Errorf("detail purge %q", d)
	}
	if d := detail["vault_project.files_count"]; d != "invalid" {
		t.Errorf("detail files_count %q", d)
	}
}
