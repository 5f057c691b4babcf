package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestStatusJournalAcrossProjects: `status --journal` lists every
// unfinished file of the profile's runs, in every project, with the path
// that was uploaded (a/b/x.pdf and c/x.pdf are two files, not one name
// twice) and the project (its name from the console's cached listing,
// else its ID); an unproven file from an earlier resume is among them and
// makes the exit status 3.
func TestStatusJournalAcrossProjects(t *testing.T) {
	db := filepath.Join(t.TempDir(), store.FileName)
	s, inbox, vd := newUploadEnvAt(t, db)
	second, err := s.AddProject(sim.ProjectSpec{Name: "Second matter"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"one/a/b/x.pdf", "one/c/x.pdf", "two/brief.docx"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), []byte("content of "+f), 0o644)
	}
	if r := vd("upload", inbox, filepath.Join(dir, "one"), "--mode", "keep", "--same-names"); r.code != 0 {
		t.Fatalf("upload one: %d %s", r.code, r.stderr)
	}
	if r := vd("upload", second, filepath.Join(dir, "two")); r.code != 0 {
		t.Fatalf("upload two: %d %s", r.code, r.stderr)
	}
	journalUnproven(t, db, inbox)

	r := vd("status", "--journal")
	if r.code != ExitPartial {
		t.Errorf("exit %d, want 3 (an unproven file): %s", r.code, r.stderr)
	}
	for _, want := range []string{
		`(?m)^processing +processing +` + inbox + ` +a/b/x\.pdf `,
		`(?m)^processing +processing +` + inbox + ` +c/x\.pdf `,
		`(?m)^processing +processing +` + second + ` +brief\.docx `,
		`(?m)^missing +unproven +` + inbox + ` +a/b/x\.pdf +- `,
		`4 unfinished files in the upload journal: ready 0 · processing 3 · stuck 0 · failed 0 · missing 1; 1 unproven`,
	} {
		if !regexp.MustCompile(want).MatchString(r.stdout) {
			t.Errorf("no line matching %s in:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "unproven files may or may not have arrived") {
		t.Errorf("stderr: %q", r.stderr)
	}

	// The console's cached listing names the projects.
	st, _ := store.Open(db)
	body, _ := json.Marshal(map[string]any{"projects": []map[string]any{{"id": inbox, "name": "Inbox"}, {"id": second, "name": "Second matter"}}})
	st.PutCache("default", "projects", body, time.Now())
	st.Close()
	r = vd("status", "--journal", "--csv")
	recs := readCSV(t, "status --journal", r.stdout)
	// the console's record of :files without IDs (ui/csvsafe/records), in
	// the journal's order
	if len(recs) != 5 || strings.Join(recs[0], ",") != "path,status,in status since (UTC),dated from,group,file id,project,uploaded (UTC),run,project id" {
		t.Fatalf("csv: %q", recs)
	}
	projects := column(t, "status --journal", recs, "project")
	if strings.Join(projects, ",") != "Inbox,Inbox,Second matter,Inbox" {
		t.Errorf("projects %q", projects)
	}
	r = vd("status", "--journal", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 4 || r.code != ExitPartial {
		t.Fatalf("json: %v %d %q", err, r.code, r.stdout)
	}
	if u := list[3]; u["status"] != "unproven" || u["file_path"] != "a/b/x.pdf" || u["project_name"] != "Inbox" || u["reason"] == "" {
		t.Errorf("unproven entry %v", u)
	}
	if r = vd("status", "--journal", "x"); r.code != ExitUsage {
		t.Errorf("--journal with an ID: %d", r.code)
	}
}
