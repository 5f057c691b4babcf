package cli

import (
	"encoding/csv"
	"strings"
	"testing"
)

// TestReceiptCodeFilter: the console's error-code filter on a receipt (the
// matters view's TypeCycle key) has a headless flag: `matters receipt ID
// --code C` lists the items with that code alone, in every output form.
func TestReceiptCodeFilter(t *testing.T) {
	e := newMattersEnv(t)
	p := e.file(t, "export.csv", spreadsheet(e.live(2)))
	if r := e.vd("", "matters", "delete", p, "--yes"); r.code != ExitPartial {
		t.Fatalf("delete: %d %q", r.code, r.stderr)
	}
	r := e.vd("", "matters", "receipt", "1", "--code", "invalid_client_id", "--export", "csv")
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if r.code != 0 || err != nil || len(rows) != 2 || rows[1][4] != "invalid_client_id" {
		t.Fatalf("--code --export csv: %d %v %q %q", r.code, err, r.stdout, r.stderr)
	}
	r = e.vd("", "matters", "receipt", "1", "--code", "invalid_client_id", "--jq", ".items[].code")
	if r.code != 0 || r.stdout != "invalid_client_id\n" {
		t.Errorf("--code --jq: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = e.vd("", "matters", "receipt", "1", "--code", "blocked_by_ethical_wall", "--result", "error")
	_, items, _ := strings.Cut(r.stdout, "\nLINE ")
	if r.code != 0 || strings.Count(items, "\n") != 2 || !strings.Contains(items, "blocked_by_ethical_wall") {
		t.Errorf("--code table: %d %q %q", r.code, r.stdout, r.stderr)
	}
}
