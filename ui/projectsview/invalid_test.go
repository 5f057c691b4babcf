package projectsview

import (
	"encoding/json"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestInvalidNumbersShowAsInvalid: a project whose files_count and
// size_bytes are 10^30 or negative, created in the year 9999, shows invalid,
// never -9223372036854775808 or 0 B.
func TestInvalidNumbersShowAsInvalid(t *testing.T) {
	for _, n := range []string{`1000000000000000000000000000000`, `-7`, `"NaN"`} {
		var p api.Project
		if err := json.Unmarshal([]byte(`{"id":"p","name":"P","files_count":`+n+`,"size_bytes":`+n+`,"created_at":"9999-01-01T00:00:00Z"}`), &p); err != nil {
			t.Fatal(err)
		}
		cells := Rows([]api.Project{p})[0].Cells
		if cells[1] != "invalid" || cells[2] != "invalid" || cells[3] != "invalid" {
			t.Errorf("%s: files %q, size %q, created %q; want invalid", n, cells[1], cells[2], cells[3])
		}
	}
}
