package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// holdingProxy forwards everything to the simulator process, except that
// the answer to the first DELETE /api/v2/matters is withheld: the sim
// processes the request, held is closed, and the client never hears back.
// It is how "killed before the answer to its first request" is staged
// without any timing: the test kills the client once held is closed.
func holdingProxy(t *testing.T, simBase string) (base string, held <-chan struct{}) {
	t.Helper()
	target, err := url.Parse(simBase)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	ch := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete && r.URL.Path == "/api/v2/matters" {
			first := false
			once.Do(func() { first = true })
			if first {
				rp.ServeHTTP(httptest.NewRecorder(), r) // the service acts...
				close(ch)
				<-r.Context().Done() // ...and its answer never arrives
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, ch
}

// TestRestoreAfterKillInventsNothing is issue 17 case 5, through the built
// binary: a file of 12,000 pairs that do not exist (plus matters that were
// deleted long before this run), `matters delete --yes` killed before the
// answer to its first request, then `matters restore --receipt 1 --yes`.
// The restore must create nothing and un-delete nothing.
func TestRestoreAfterKillInventsNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin)
	var before []sim.MatterInfo // deleted by the seed, 90 days ago
	for _, m := range sim.New(sim.Options{Seed: sim.DefaultSeed}).Matters() {
		if m.Deleted && !m.V1 {
			before = append(before, m)
		}
	}
	if len(before) == 0 {
		t.Fatal("the seed has no deleted v2 matter")
	}
	var b strings.Builder
	b.WriteString("client_id,matter_id\n")
	for _, m := range before {
		b.WriteString(m.ClientID + "," + m.MatterID + "\n")
	}
	for i := 0; i < 12000; i++ {
		fmt.Fprintf(&b, "NX%05d,GHOST-%05d\n", i, i)
	}
	csvPath := filepath.Join(t.TempDir(), "ghosts.csv")
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + home}
	proxy, held := holdingProxy(t, sp.base)

	cmd := exec.Command(bin, "matters", "delete", csvPath, "--yes", "--base-url", proxy)
	cmd.Env = childEnv(t, nil, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(2 * time.Minute): // a bound on a hang, not a timing assumption
		_ = cmd.Process.Kill()
		t.Fatal("the first deletion request never arrived")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	g := []string{"--base-url", sp.base}
	out, stderr, code := vd(t, bin, env, "", append([]string{"--json", "matters", "restore", "--receipt", "1", "--yes"}, g...)...)
	var res struct {
		Counts map[string]int
	}
	_ = json.Unmarshal([]byte(out), &res)
	if res.Counts["created"] != 0 || res.Counts["restored"] != 0 {
		t.Errorf("restore changed the workspace: %v (exit %d)\n%s", res.Counts, code, stderr)
	}
	if code != 0 {
		t.Errorf("restore exit %d, want 0: every in-flight pair was proven not deleted by this run\n%s", code, stderr)
	}
	// The first request carried the first 10,000 pairs: the old deletions,
	// then ghosts.
	ghosts := 10000 - len(before)
	if !strings.Contains(stderr, fmt.Sprintf("%d never existed", ghosts)) || !strings.Contains(stderr, fmt.Sprintf("%d were already deleted before", len(before))) {
		t.Errorf("restore does not say what it left alone:\n%s", stderr)
	}

	// The service agrees: no ghost exists, and the old deletions stand.
	_, stderr, _ = vd(t, bin, env, "", append([]string{"matters", "delete", csvPath, "--yes", "--json"}, g...)...)
	out, _, _ = vd(t, bin, env, "", append([]string{"--json", "matters", "receipt", "3"}, g...)...)
	var rc struct{ Counts map[string]int }
	if err := json.Unmarshal([]byte(out), &rc); err != nil || rc.Counts["already_absent"] != 12000+len(before) {
		t.Errorf("after the restore, a new deletion found %v (want all %d already absent)\n%s", rc.Counts, 12000+len(before), stderr)
	}

	// The receipts name the token that acted (issue 19 case 15): no stored
	// profile exists here, so not "default".
	out, _, _ = vd(t, bin, env, "", "--json", "matters", "receipts")
	var list []struct{ Profile, Endpoint string }
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) == 0 {
		t.Fatalf("receipts: %v %s", err, out)
	}
	for _, r := range list {
		if !strings.HasSuffix(r.Profile, "@harrowgate-law.com (VAULTDECK_TOKEN)") || r.Endpoint == "" {
			t.Errorf("receipt names %q, endpoint %q; want whoami's e-mail, (VAULTDECK_TOKEN) and the base URL", r.Profile, r.Endpoint)
		}
	}
}

// TestRestoreAfterKillBringsBackWhatTheLostAnswerDeleted is the other side
// of case 5: the first request's answer is lost after the service deleted
// live matters; the restore proves it from the listing (deleted after the
// request went out, on the service's clock) and brings exactly those back.
func TestRestoreAfterKillBringsBackWhatTheLostAnswerDeleted(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin)
	var live []sim.MatterInfo
	for _, m := range sim.New(sim.Options{Seed: sim.DefaultSeed}).Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && len(live) < 5 {
			live = append(live, m)
		}
	}
	var b strings.Builder
	b.WriteString("client_id,matter_id\n")
	for _, m := range live {
		b.WriteString(m.ClientID + "," + m.MatterID + "\n")
	}
	b.WriteString("NX00001,GHOST-1\n")
	csvPath := filepath.Join(t.TempDir(), "close.csv")
	if err := os.WriteFile(csvPath, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + t.TempDir()}
	proxy, held := holdingProxy(t, sp.base)
	cmd := exec.Command(bin, "matters", "delete", csvPath, "--yes", "--base-url", proxy)
	cmd.Env = childEnv(t, nil, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-held:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("the deletion request never arrived")
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()

	out, stderr, code := vd(t, bin, env, "", "--json", "matters", "restore", "--receipt", "1", "--yes", "--base-url", sp.base)
	var res struct{ Counts map[string]int }
	if err := json.Unmarshal([]byte(out), &res); err != nil || code != 0 || res.Counts["restored"] != len(live) ||
		res.Counts["left_alone"] != 1 || res.Counts["created"] != 0 {
		t.Fatalf("restore: exit %d, counts %v\n%s", code, res.Counts, stderr)
	}
	if !strings.Contains(stderr, "1 never existed") {
		t.Errorf("the ghost is not said left alone:\n%s", stderr)
	}
}
