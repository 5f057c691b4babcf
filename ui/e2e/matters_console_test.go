package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestDemoMattersByKeyboard deletes and restores client matters in the
// console as a person does: :matters, open the file with Tab completion,
// read the preview, type the number of pairs, read the receipt, restore.
// Keys go in as bursts (send-keys -l) and one at a time.
func TestDemoMattersByKeyboard(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	var live []sim.MatterInfo
	for _, m := range sim.New(sim.Options{Seed: sim.DefaultSeed}).Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(live) < 2 {
			live = append(live, m)
		}
	}
	dir := t.TempDir()
	body := "\ufeffClient ID,Matter ID,Notes\r\n"
	for _, m := range live {
		body += m.ClientID + ",\"" + m.MatterID + "\",\"closed, archived\"\r\n\r\n"
	}
	body += sim.LinkedClientID + "," + sim.LinkedMatterID + ",linked\r\n"
	if err := os.WriteFile(filepath.Join(dir, "closing-2024.csv"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startTmux(t, []string{"VAULTDECK_HOME=" + t.TempDir(), "TERM=xterm-256color"},
		"sh", "-c", bin+` demo; echo "EXITED $?"; sleep 600`)
	s.waitForText("Projects ·")
	s.literal(":matters")
	s.keys("Enter")
	s.waitForText("Matter receipts")
	s.keys("n")
	s.waitForText("Open a matter file")
	s.literal(dir + "/clo")
	s.keys("Tab")
	s.waitForText("closing-2024.csv")
	s.keys("Enter")
	sc := s.waitForText("Preview of closing-2024.csv")
	if !strings.Contains(sc, "3 pairs · 3 to send in 1 request") || !strings.Contains(sc, "ignored columns: Notes") {
		t.Fatalf("preview:\n%s", sc)
	}
	s.keys("X")
	s.waitForText("Type 3 to confirm")
	s.keys("3", "Enter")
	sc = s.waitForText("Receipt 1")
	if !strings.Contains(sc, "3 pairs: deleted 2, error 1") || !strings.Contains(sc, "blocked_by_ethical_wall") {
		t.Fatalf("receipt:\n%s", sc)
	}
	s.keys("U")
	s.waitForText("Type 2 to confirm")
	s.literal("2")
	s.keys("Enter")
	sc = s.waitForText("restore of receipt 1")
	if !strings.Contains(sc, "2 pairs: restored 2") {
		t.Fatalf("restore receipt:\n%s", sc)
	}
	s.keys("Escape")
	s.waitForText("restore 1")
	s.keys("q")
	s.waitForText("EXITED 0")
}
