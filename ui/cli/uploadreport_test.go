package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestUploadsReport: the incident report of a misfiled run names the
// people who could reach the project (now, and from the access snapshot
// taken before the window, marked so) and the audit entries of the window
// on that project or its files: the upload and each deletion.
func TestUploadsReport(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), store.FileName)
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s := e.Sim
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Wrong client"})
	if err := s.Share(pid, "m.castellano@harrowgate-law.com", "READ"); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	open := func() (*store.Store, error) { return store.Open(dbPath) }
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }, Limits: api.Limits{Vault: -1},
			OpenStore: open, Journal: func(string) (*store.Store, string, error) { st, err := open(); return st, "default", err }}
		return run{Main(context.Background(), args, env), out.String(), errb.String()}
	}
	if r := vd("access", "crawl"); r.code != ExitOK {
		t.Fatalf("crawl: %d %s", r.code, r.stderr)
	}
	dir := t.TempDir()
	for _, n := range []string{"a.pdf", "b.pdf"} {
		os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644)
	}
	if r := vd("upload", pid, dir); r.code != ExitOK {
		t.Fatalf("upload: %d %s", r.code, r.stderr)
	}
	for _, f := range s.LiveFiles(pid) { // processed (the clocks stay together: the window is this machine's)
		s.SetFileStatus(f.ID, "READY_TO_QUERY")
	}
	if r := vd("uploads", "undo", "1", "--yes"); r.code != ExitOK {
		t.Fatalf("undo: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := vd("audit", "sync"); r.code != ExitOK {
		t.Fatalf("sync: %d %s", r.code, r.stderr)
	}
	r := vd("uploads", "report", "1", "--json")
	var rep struct {
		Files []struct {
			RemovedAt string `json:"removed_at"`
		} `json:"files"`
		CouldReach []struct{ Email, Source string } `json:"could_reach"`
		Audit      []struct{ Type string }          `json:"audit_entries"`
		Covers     bool                             `json:"mirror_covers_window"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%d %v %q %q", r.code, err, r.stdout, r.stderr)
	}
	if len(rep.Files) != 2 || rep.Files[0].RemovedAt == "" || !rep.Covers {
		t.Fatalf("%+v", rep)
	}
	sources := map[string]bool{}
	for _, x := range rep.CouldReach {
		if x.Email == "m.castellano@harrowgate-law.com" {
			sources[strings.Fields(x.Source)[0]] = true
		}
	}
	if !sources["now"] || !sources["snapshot"] {
		t.Fatalf("the colleague with READ, now and in the snapshot: %+v", rep.CouldReach)
	}
	types := map[string]int{}
	for _, a := range rep.Audit {
		types[a.Type]++
	}
	if types[sim.AuditAPIUpload] != 1 || types[sim.AuditAPIDeleteFile] != 2 {
		t.Fatalf("audit entries of the window: %v", types)
	}
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
}
