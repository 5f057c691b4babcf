package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestUploadsUndoSurvivesKill9 is issue 44's "kill -9 mid-undo and resume
// gives exactly the run", through the built binary: a 12-file folder
// uploaded, its undo paced (--max-rate 30: a deletion every two seconds)
// and killed with SIGKILL once its second request was answered; running the
// undo again resumes the job, and then the project holds what it held
// before the upload, and the service's log has one deletion a file of the
// run, none twice.
func TestUploadsUndoSurvivesKill9(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit", "--processing-delay", "1ms")
	env := childEnv(t, nil, "VAULTDECK_HOME="+t.TempDir(), "VAULTDECK_TOKEN="+sp.tokens["admin"], "VAULTDECK_BASE_URL="+sp.base)
	c, err := api.New(api.Config{BaseURL: sp.base, Token: api.StaticToken(sp.tokens["admin"]), Limits: api.Limits{Vault: -1, Audit: -1}})
	if err != nil {
		t.Fatal(err)
	}
	ps, _, err := c.Projects(api.ProjectQuery{}).Collect(context.Background())
	if err != nil || len(ps) == 0 {
		t.Fatalf("projects: %v", err)
	}
	pid := ps[0].ID
	before := countFiles(t, sp, pid)
	const n = 12
	dir := filepath.Join(t.TempDir(), "misfiled")
	os.MkdirAll(dir, 0o755)
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("privileged-%02d.pdf", i)), []byte(fmt.Sprint("privileged ", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if o, e, code := vd(t, bin, env, "", "upload", pid, dir, "--mode", "keep"); code != 0 {
		t.Fatalf("upload: exit %d: %s %s", code, o, e)
	}
	if got := countFiles(t, sp, pid); got != before+n {
		t.Fatalf("after the upload the project holds %d files, want %d", got, before+n)
	}
	o, e, code := vd(t, bin, env, "", "uploads", "--json")
	var runs []struct {
		Run int64 `json:"id"`
	}
	if code != 0 || json.Unmarshal([]byte(o), &runs) != nil || len(runs) != 1 || runs[0].Run == 0 {
		t.Fatalf("uploads --json: exit %d: %s %s", code, o, e)
	}
	run := fmt.Sprint(runs[0].Run)

	cmd := exec.Command(bin, "uploads", "undo", run, "--yes", "--max-rate", "30")
	cmd.Env = env
	seen := killAfterLine(t, cmd, "request 2 (")
	atKill := countFiles(t, sp, pid)
	if atKill <= before || atKill >= before+n {
		t.Fatalf("the kill did not land mid-undo: %d of the run's %d files left (before the kill:\n%s)", atKill-before, n, seen)
	}
	// before the resume, the run's listing says of each file what is
	// known: deleted only if the service no longer holds it, uploaded only
	// if it does, unknown for a request in flight at the kill (exit 3)
	live := map[string]bool{}
	meta, err := c.GetMetadata(context.Background(), pid)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range meta.FileIDs {
		live[strings.ToLower(id)] = true
	}
	o, e, code = vd(t, bin, env, "", "uploads", run, "--json")
	var files []struct {
		FileID string `json:"file_id"`
		Result string `json:"result"`
	}
	if err := json.Unmarshal([]byte(o), &files); err != nil || len(files) != n {
		t.Fatalf("uploads %s --json after the kill: exit %d: %v %s %s", run, code, err, o, e)
	}
	words := map[string]int{}
	for _, f := range files {
		words[f.Result]++
		switch {
		case f.Result == "deleted" && live[strings.ToLower(f.FileID)]:
			t.Errorf("%s reads deleted, the service holds it", f.FileID)
		case f.Result == "uploaded" && !live[strings.ToLower(f.FileID)]:
			t.Errorf("%s reads uploaded, the service no longer holds it", f.FileID)
		case f.Result != "deleted" && f.Result != "uploaded" && f.Result != "unknown":
			t.Errorf("%s reads %s mid-undo", f.FileID, f.Result)
		}
	}
	want := 0
	if words["unknown"] > 0 {
		want = 3
	}
	if code != want {
		t.Errorf("uploads %s with %d unknown: exit %d, want %d", run, words["unknown"], code, want)
	}
	t.Logf("after the kill, before the resume: %v", words)
	o, e, code = vd(t, bin, env, "", "uploads", "undo", run, "--yes", "--max-rate", "30")
	if code != 0 || !strings.Contains(e, "resuming undo job") {
		t.Fatalf("the undo again: exit %d:\n%s\n%s\n(before the kill:\n%s)", code, o, e, seen)
	}
	if got := countFiles(t, sp, pid); got != before {
		t.Errorf("after the resume the project holds %d files, want the %d it held before the upload", got, before)
	}
	deleted := map[string]int{}
	_, err = c.Audit(api.AuditQuery{}).Each(context.Background(), func(e *api.AuditEntry, _ api.RawItem) error {
		if string(e.Type) == sim.AuditAPIDeleteFile {
			var d struct {
				FileID string `json:"file_id"`
			}
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return err
			}
			deleted[d.FileID]++
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(deleted) != n {
		t.Errorf("the service logged deletions of %d files, want the run's %d", len(deleted), n)
	}
	for id, k := range deleted {
		if k != 1 {
			t.Errorf("file %s: deleted %d times, want once", id, k)
		}
	}
	o, e, code = vd(t, bin, env, "", "uploads", run, "--csv")
	if code != 0 || strings.Count(o, ",deleted,deleted by undo job ") != n {
		t.Errorf("uploads %s --csv after the resume: exit %d:\n%s\n%s", run, code, o, e)
	}
	t.Logf("killed with %d of %d files left; the resume deleted the rest", atKill-before, n)
}
