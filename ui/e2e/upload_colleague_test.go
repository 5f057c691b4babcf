package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type uploadJSON struct {
	Uploaded []struct {
		Local  string `json:"local_path"`
		FileID string `json:"file_id"`
	}
	Unproven []struct {
		Local  string `json:"local_path"`
		Reason string
	}
}

// TestResumeAfterAColleaguesUpload is issue 17's first case through the
// built binary: client A uploads doc01..doc60.txt; a little later client B
// (another machine: its own home, its own journal) uploads files of the
// same names and sizes with new content, and is killed with its first
// request on the wire, before it reaches the service; then B runs `upload
// --resume`. Before, the resume adopted A's files by name and time: exit 0,
// "uploaded 60", A's content on the server. Now every name ends with B's
// upload on the server (replace), or B's resume exits 3 naming each file it
// cannot prove (keep), and B's journal never claims one of A's files.
func TestResumeAfterAColleaguesUpload(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	for _, mode := range []string{"replace", "keep"} {
		t.Run(mode, func(t *testing.T) {
			sp := startSim(t, bin, "--no-rate-limit")
			envA := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + t.TempDir(), "VAULTDECK_BASE_URL=" + sp.base}
			homeB := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"], "VAULTDECK_HOME=" + t.TempDir()}
			envB := append(homeB[:2:2], "VAULTDECK_BASE_URL="+sp.base)
			out, stderr, code := vd(t, bin, envA, "", "projects", "--json")
			var projects []struct{ ID string }
			if err := json.Unmarshal([]byte(out), &projects); err != nil || code != 0 || len(projects) == 0 {
				t.Fatalf("projects: %d %v %s", code, err, stderr)
			}
			pid := projects[0].ID
			write := func(who string) string {
				dir := filepath.Join(t.TempDir(), who)
				os.MkdirAll(dir, 0o755)
				for i := 1; i <= 60; i++ {
					os.WriteFile(filepath.Join(dir, fmt.Sprintf("doc%02d.txt", i)), []byte(fmt.Sprintf("%s's version of doc %02d", who, i)), 0o600)
				}
				return dir
			}
			dirA, dirB := write("A"), write("B")

			out, stderr, code = vd(t, bin, envA, "", "upload", pid, dirA, "--mode", mode, "--json")
			var a uploadJSON
			if err := json.Unmarshal([]byte(out), &a); err != nil || code != 0 || len(a.Uploaded) != 60 {
				t.Fatalf("A's upload: %d %v %s", code, err, stderr)
			}
			aIDs := map[string]bool{}
			for _, f := range a.Uploaded {
				aIDs[f.FileID] = true
			}
			// B starts "seconds later": the listing dates uploads in whole
			// seconds, so B's run must begin in a later second than A's
			// files arrived (within the same second the listing cannot
			// tell them apart, a documented limit of the rule).
			time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
			killedBeforeArrival(t, bin, homeB, "upload", pid, dirB, "--mode", mode)

			out, stderr, code = vd(t, bin, envB, "", "upload", "--resume", "--json")
			var b uploadJSON
			if err := json.Unmarshal([]byte(out), &b); err != nil {
				t.Fatalf("B's resume: %d %v %s %s", code, err, out, stderr)
			}
			for _, f := range b.Uploaded {
				if aIDs[f.FileID] {
					t.Errorf("B's resume calls A's file %s its own (%s)", f.FileID, f.Local)
				}
			}
			unproven := map[string]bool{}
			for _, f := range b.Unproven {
				unproven[filepath.Base(f.Local)] = true
				if !strings.Contains(f.Reason, "check the project") {
					t.Errorf("%s is unproven without saying what to do: %q", f.Local, f.Reason)
				}
			}
			if len(unproven) > 0 && code != 3 {
				t.Errorf("exit %d with %d unproven files, want 3", code, len(unproven))
			}
			if len(b.Uploaded)+len(b.Unproven) != 60 {
				t.Errorf("B's resume: %d uploaded, %d unproven, want 60 in all (exit %d)\n%s", len(b.Uploaded), len(b.Unproven), code, stderr)
			}
			bByName := map[string]string{}
			for _, f := range b.Uploaded {
				bByName[filepath.Base(f.Local)] = f.FileID
			}
			out, stderr, code = vd(t, bin, envB, "", "files", pid, "--json", "--name", "doc")
			var files []struct{ ID, Name string }
			if err := json.Unmarshal([]byte(out), &files); err != nil || code != 0 {
				t.Fatalf("files: %d %v %s", code, err, stderr)
			}
			listed := map[string]bool{}
			for _, f := range files {
				listed[f.ID] = true
			}
			for i := 1; i <= 60; i++ {
				name := fmt.Sprintf("doc%02d.txt", i)
				if id := bByName[name]; id != "" && !listed[id] {
					t.Errorf("%s: B's upload %s is not in the project", name, id)
				} else if id == "" && !unproven[name] {
					t.Errorf("%s: neither uploaded by B nor named unproven", name)
				}
			}
			if mode == "replace" && (code != 0 || len(b.Uploaded) != 60) {
				t.Errorf("replace: B's resume exit %d, %d uploaded; want every file re-sent as a new version", code, len(b.Uploaded))
			}
		})
	}
}
