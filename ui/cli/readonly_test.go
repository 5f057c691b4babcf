package cli

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestReadOnlyProfileRefusesMutations: a profile stored read-only (by login
// --read-only, or by `config set read-only true`) refuses every headless
// command that changes the workspace, before any request; dry runs and
// listings still work.
func TestReadOnlyProfileRefusesMutations(t *testing.T) {
	var requests atomic.Int64
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow},
		Wrap: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				next.ServeHTTP(w, r)
			})
		}})
	s := e.Sim
	pid, err := s.AddProject(sim.ProjectSpec{Name: "Inbox"})
	if err != nil {
		t.Fatal(err)
	}

	home := t.TempDir()
	vars := map[string]string{"VAULTDECK_HOME": home, "VAULTDECK_TOKEN": s.Token("admin")}
	st, getenv := homeStore(t, vars, store.Profile{Name: "prod-ro", BaseURL: e.URL, ReadOnly: true}, store.Profile{Name: "cfg-ro", BaseURL: e.URL})
	st.Close()
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		code := Main(context.Background(), args, Std(strings.NewReader(""), &out, &errb, getenv))
		return run{code, out.String(), errb.String()}
	}
	if r := vd("--profile", "cfg-ro", "config", "set", "read-only", "true"); r.code != ExitOK {
		t.Fatalf("config set read-only: %d %q", r.code, r.stderr)
	}

	dir := t.TempDir()
	doc := filepath.Join(dir, "a.pdf")
	csv := filepath.Join(dir, "f.csv")
	os.WriteFile(doc, []byte("content"), 0o600)
	os.WriteFile(csv, []byte("client_id,matter_id\nC-1,M-1\n"), 0o600)
	for _, prof := range []string{"prod-ro", "cfg-ro"} {
		for _, args := range [][]string{
			{"matters", "delete", csv, "--yes"},
			{"matters", "restore", "--receipt", "1", "--yes"},
			{"upload", pid, doc},
			{"upload", "--resume"},
		} {
			before := requests.Load()
			r := vd(append([]string{"--profile", prof}, args...)...)
			name := args[0] // the command's name, as its other messages give it
			if name == "matters" {
				name += " " + args[1]
			}
			want := `vaultdeck ` + name + `: profile "` + prof + `" is read-only; this command changes the workspace`
			if r.code != ExitUsage || strings.TrimSpace(r.stderr) != want {
				t.Errorf("%s %v: code %d, stderr %q; want %d %q", prof, args, r.code, r.stderr, ExitUsage, want)
			}
			if n := requests.Load() - before; n != 0 {
				t.Errorf("%s %v: %d request(s) reached the service", prof, args, n)
			}
		}
		if r := vd("--profile", prof, "matters", "delete", csv, "--dry-run"); r.code != ExitOK {
			t.Errorf("%s dry run: %d %q", prof, r.code, r.stderr)
		}
		if r := vd("--profile", prof, "projects"); r.code != ExitOK || !strings.Contains(r.stdout, "Inbox") {
			t.Errorf("%s projects: %d %q %q", prof, r.code, r.stdout, r.stderr)
		}
	}
}
