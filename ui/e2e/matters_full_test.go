package e2e

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // the store's driver, to add the fault trigger

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestDeletionWithUnrecordableReceiptExits3 is issue 17 case 6 through the
// built binary: a 30,000-pair deletion whose receipt cannot take the third
// request's answer (a trigger fails it as a full disk does). The service
// deleted what it deleted; the command must exit 3, say the receipt is
// incomplete and name what is unrecorded, never exit 0.
func TestDeletionWithUnrecordableReceiptExits3(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin)
	var live []sim.MatterInfo
	for _, m := range sim.New(sim.Options{Seed: sim.DefaultSeed}).Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(live) < 3 {
			live = append(live, m)
		}
	}
	var b strings.Builder
	b.WriteString("client_id,matter_id\n")
	for i := 0; i < 30000-len(live); i++ {
		fmt.Fprintf(&b, "NX%05d,GONE-%05d\n", i, i)
	}
	for _, m := range live { // in the third request: deleted, unrecorded
		b.WriteString(m.ClientID + "," + m.MatterID + "\n")
	}
	csvPath := filepath.Join(t.TempDir(), "close.csv")
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + home}
	g := []string{"--base-url", sp.base}
	if _, stderr, code := vd(t, bin, env, "", "matters", "receipts"); code != 0 { // creates the database
		t.Fatalf("receipts: %d %s", code, stderr)
	}
	paths, err := store.DefaultPaths(func(k string) string {
		if k == "VAULTDECK_HOME" {
			return home
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	dbPath := paths.Database()
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TRIGGER disk_full BEFORE UPDATE ON matter_receipt_items WHEN OLD.request = 3
		BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	out, stderr, code := vd(t, bin, env, "", append([]string{"matters", "delete", csvPath, "--yes"}, g...)...)
	if code != 3 {
		t.Errorf("exit %d, want 3 (the receipt could not record request 3)", code)
	}
	for _, want := range []string{"receipt 1 is incomplete", "request 3", "lines 20002-30001", fmt.Sprintf("deleted %d", len(live))} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	// stdout still carries every pair's real outcome, the unrecorded ones too
	for _, m := range live {
		if !strings.Contains(out, m.MatterID) {
			t.Errorf("stdout lacks the outcome of %s", m.MatterID)
		}
	}
	// and the receipt holds them in flight, so a restore checks them
	out, _, _ = vd(t, bin, env, "", "matters", "receipt", "1", "--result", "in_flight", "--export", "csv")
	if n := strings.Count(out, "\n") - 1; n != 10000 {
		t.Errorf("receipt has %d in-flight lines, want 10000 (request 3)", n)
	}
}

// TestDeletionOnAFullDiskExits3 is case 6 on a real full filesystem: the
// state directory is a 1.8 MB tmpfs, which a 30,000-pair receipt outgrows
// part way. It needs root to mount (CI containers usually are); elsewhere
// the trigger test above covers the same path.
func TestDeletionOnAFullDiskExits3(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	home := t.TempDir()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1800k", "tmpfs", home).CombinedOutput(); err != nil {
		t.Skipf("no tmpfs here: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", home).Run() })
	bin := buildBinary(t)
	sp := startSim(t, bin)
	var b strings.Builder
	b.WriteString("client_id,matter_id\n")
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&b, "NX%05d,GONE-%05d\n", i, i)
	}
	csvPath := filepath.Join(t.TempDir(), "close.csv")
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + home}
	_, stderr, code := vd(t, bin, env, "", "matters", "delete", csvPath, "--yes", "--base-url", sp.base)
	if code != 3 || !strings.Contains(stderr, "receipt 1 is incomplete") || !strings.Contains(stderr, "disk is full") {
		t.Errorf("exit %d, want 3 and the receipt called incomplete:\n%s", code, stderr)
	}
}
