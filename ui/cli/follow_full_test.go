package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// fillingDisk takes its first room bytes, refuses the next refusals
// writes as a full disk does, then takes everything (space was freed).
type fillingDisk struct {
	room, refusals int
	got            bytes.Buffer
}

func (d *fillingDisk) Write(b []byte) (int, error) {
	if left := d.room - d.got.Len(); left >= 0 && left < len(b) {
		if d.refusals > 0 {
			d.refusals--
			d.got.Write(b[:left])
			if d.refusals == 0 {
				d.room = 1 << 40
			}
			return left, syscall.ENOSPC
		}
	}
	return d.got.Write(b)
}

// TestFollowToStdoutGoesOnWhenSpaceReturns: `audit follow` to a stdout
// whose disk fills waits it out and, once space is freed, writes from the
// first byte the disk refused: every entry once, whole, in order, as a run
// on a stdout with room writes them, exit 0, and its checkpoint at the
// last entry written.
func TestFollowToStdoutGoesOnWhenSpaceReturns(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow, AuditEntries: 400},
		Wrap: func(next http.Handler) http.Handler { return next }})
	dir := t.TempDir()
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(out *fillingDisk, args ...string) (int, string) {
		var errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1},
			OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(dir, "vaultdeck.db")) },
			Clock:     fixedClock{}}
		return Main(context.Background(), args, env), errb.String()
	}
	clean := &fillingDisk{room: 1 << 40}
	if code, errText := vd(clean, "audit", "follow", "--once", "--no-mirror"); code != 0 || clean.got.Len() < 10000 {
		t.Fatalf("on a stdout with room: exit %d, %d bytes, %q", code, clean.got.Len(), errText)
	}
	full := &fillingDisk{room: 5000, refusals: 3}
	code, errText := vd(full, "audit", "follow", "--once", "--no-mirror", "--checkpoint", "siem")
	// the second run also sees the first one's own reads of the log
	if code != 0 || !strings.HasPrefix(full.got.String(), clean.got.String()) || !strings.HasSuffix(full.got.String(), "\n") {
		t.Errorf("exit %d, %d bytes (the run with room wrote %d), continuing them: %v; stderr %q", code, full.got.Len(), clean.got.Len(), strings.HasPrefix(full.got.String(), clean.got.String()), errText)
	}
	var last string
	for _, l := range strings.Split(strings.TrimSpace(full.got.String()), "\n") {
		var e struct{ ID string }
		if json.Unmarshal([]byte(l), &e) != nil || strings.ToLower(e.ID) <= strings.ToLower(last) {
			t.Fatalf("a line that is not a whole entry after %s: %.120q", last, l)
		}
		last = e.ID
	}
	if !strings.Contains(errText, "no space left on device; trying again") || !strings.Contains(errText, "written again") {
		t.Errorf("stderr %q", errText)
	}
	st, err := store.Open(filepath.Join(dir, "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if id, _ := st.AuditCheckpoint(context.Background(), "siem"); id != last {
		t.Errorf("the checkpoint is %q, not the last entry written (%s)", id, last)
	}
}
