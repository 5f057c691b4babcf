package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/faultserver"
)

// homeHolds reports whether any file under dir (the SQLite database, its
// WAL and shared memory included) holds b, in any letter case.
func homeHolds(t *testing.T, dir string, b string) bool {
	t.Helper()
	found := false
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil && bytes.Contains(bytes.ToLower(data), []byte(strings.ToLower(b))) {
			found = true
		}
		return nil
	})
	return found
}

// TestTokenInDataNotOnScreenOrDisk: the fault server echoes the token
// inside the data (names, IDs, e-mails, nested fields, audit data) in every
// form. The console shows the rows with [REDACTED] and never the token, and
// the response cache (vaultdeck.db and its WAL, read while the console is
// still open, and again after it quit) holds no form of it.
func TestTokenInDataNotOnScreenOrDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	requireTmux(t)
	bin := buildBinary(t)
	s := faultserver.Start(faultserver.EchoData)
	defer s.Close()
	for _, view := range []string{"projects", "bin", "audit"} {
		t.Run(view, func(t *testing.T) {
			home := t.TempDir()
			ts := startTmux(t, []string{"VAULTDECK_TOKEN=" + faultToken, "VAULTDECK_HOME=" + home, "TERM=xterm-256color"},
				bin, "--base-url", s.URL, "--open", view)
			screen := ts.waitForText("Share Purchase")
			if strings.Contains(strings.ToLower(screen), "secret") {
				t.Fatalf("the token is on the screen:\n%s", screen)
			}
			// The cache row is written in a command once the answer is in:
			// wait for it to reach the database or its WAL, then look (the
			// audit view keeps no cache).
			if view != "audit" {
				ts.waitFor("the cache row on disk", func(string) bool { return homeHolds(t, home, "[REDACTED]") })
			}
			if homeHolds(t, home, "secret") {
				t.Errorf("the token is in a file under VAULTDECK_HOME while the console runs")
			}
			ts.keys("C-c")
			ts.waitFor("the console to quit", func(string) bool { dead, _ := ts.paneDead(); return dead })
			if strings.Contains(strings.ToLower(ts.joined()), "secret") {
				t.Errorf("the token is on the screen:\n%s", ts.joined())
			}
			if homeHolds(t, home, "secret") {
				t.Errorf("the token is in a file under VAULTDECK_HOME after quitting")
			}
		})
	}
}
