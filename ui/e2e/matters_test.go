package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestMattersSpreadsheetExport runs the built binary on a CSV as a
// spreadsheet exports it (BOM, CRLF, quotes, an extra column, blank rows)
// against `vaultdeck sim`: preview, delete, receipt, re-run, restore.
func TestMattersSpreadsheetExport(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin)
	// The simulator process is seeded like this in-process twin, so the
	// twin names matters that exist there.
	var live []sim.MatterInfo
	for _, m := range sim.New(sim.Options{Seed: sim.DefaultSeed}).Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(live) < 3 {
			live = append(live, m)
		}
	}
	var b strings.Builder
	b.WriteString("\ufeffClient ID,Matter ID,Notes\r\n")
	for _, m := range live {
		b.WriteString(m.ClientID + ",\"" + m.MatterID + "\",\"closed, per \"\"M. Ortiz\"\"\"\r\n,,\r\n")
	}
	b.WriteString(sim.LinkedClientID + "," + sim.LinkedMatterID + ",\"DMS\r\nsynced\"\r\n\r\n")
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "Matters to close.csv")
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + t.TempDir()}
	g := []string{"--base-url", sp.base}

	out, stderr, code := vd(t, bin, env, "", append([]string{"matters", "delete", csvPath, "--dry-run"}, g...)...)
	if code != 0 || !strings.Contains(out, "pairs     4") || !strings.Contains(out, "UTF-8 with BOM") || !strings.Contains(out, "ignored   columns Notes") {
		t.Fatalf("preview: %d\n%s%s", code, out, stderr)
	}
	// Not a terminal and no --yes: refused, nothing sent.
	if _, stderr, code = vd(t, bin, env, "", append([]string{"matters", "delete", csvPath}, g...)...); code != 2 || !strings.Contains(stderr, "--yes") {
		t.Fatalf("without --yes: %d %s", code, stderr)
	}
	out, stderr, code = vd(t, bin, env, "", append([]string{"--json", "matters", "delete", csvPath, "--yes"}, g...)...)
	var res struct {
		Receipt  int
		Counts   map[string]int
		Outcomes []struct {
			Line   int
			Result string
			Code   string
		}
	}
	if code != 3 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("delete: %d %s %s", code, out, stderr)
	}
	if res.Counts["deleted"] != 3 || res.Counts["error"] != 1 || res.Outcomes[3].Line != 8 || res.Outcomes[3].Code != "blocked_by_ethical_wall" {
		t.Fatalf("delete result %+v", res)
	}
	out, _, code = vd(t, bin, env, "", "matters", "receipts", "--json")
	var receipts []struct {
		ID     int
		File   string
		Counts map[string]int
		Sha256 string
	}
	if code != 0 || json.Unmarshal([]byte(out), &receipts) != nil || len(receipts) != 1 || receipts[0].File != "Matters to close.csv" ||
		receipts[0].Counts["deleted"] != 3 || receipts[0].Counts["error"] != 1 || len(receipts[0].Sha256) != 64 {
		t.Fatalf("receipts: %s", out)
	}
	// Re-running is safe; the service now says already absent.
	out, _, _ = vd(t, bin, env, "", append([]string{"matters", "delete", csvPath, "--yes", "--json"}, g...)...)
	if json.Unmarshal([]byte(out), &res) != nil || res.Counts["already_absent"] != 3 {
		t.Fatalf("re-run: %s", out)
	}
	out, stderr, code = vd(t, bin, env, "", append([]string{"matters", "restore", "--receipt", "1", "--yes"}, g...)...)
	if code != 0 || !strings.Contains(stderr, "restored 3") {
		t.Fatalf("restore: %d %s %s", code, out, stderr)
	}
	// Back: deleting them again deletes them.
	out, _, _ = vd(t, bin, env, "", append([]string{"matters", "delete", csvPath, "--yes", "--json"}, g...)...)
	if json.Unmarshal([]byte(out), &res) != nil || res.Counts["deleted"] != 3 {
		t.Fatalf("after restore: %s", out)
	}
	out, _, code = vd(t, bin, env, "", "matters", "receipt", "1", "--export", "csv")
	if code != 0 || !strings.HasPrefix(out, "line,client_id,matter_id,result,code,detail,request\n2,") {
		t.Fatalf("export: %s", out)
	}
}
