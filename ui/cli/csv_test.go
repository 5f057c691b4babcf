package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
)

// Names a spreadsheet would misread: a formula, and a quote, a comma and a
// line break in one cell.
const (
	formulaName = `=HYPERLINK("http://evil.example","x")`
	quotedName  = "Smith, \"Jr\"\nfile"
)

// readCSV parses out as CSV with encoding/csv, as a spreadsheet would.
func readCSV(t *testing.T, what, out string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("%s: not CSV (%v):\n%s", what, err, out)
	}
	rfc3339Times(t, what, recs)
	return recs
}

// looksLikeTime is a cell holding a date or a time of day.
var looksLikeTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}.*)?$`)

// rfc3339Times fails on a time in a CSV that is not RFC 3339 in UTC with
// its seconds (issue 29.1): a file read next week, by a program, parses
// "2026-11-26T14:05:09Z" and nothing shorter. A column holding times
// holds nothing else: a time not yet known is an empty cell, as --json
// leaves it out, never a word a program would fail to parse
// ("unfinished"). Every --csv the listings write is read back through
// readCSV, so every one is checked.
func rfc3339Times(t *testing.T, what string, recs [][]string) {
	t.Helper()
	times := map[int]bool{} // the columns holding a time
	for _, rec := range recs[1:] {
		for i, cell := range rec {
			times[i] = times[i] || looksLikeTime.MatchString(cell)
		}
	}
	said := map[int]bool{}
	for _, rec := range recs[1:] {
		for i, cell := range rec {
			if said[i] || !times[i] || cell == "" {
				continue
			}
			if at, err := time.Parse(time.RFC3339, cell); err != nil || at.UTC().Format(time.RFC3339) != cell {
				t.Errorf("%s: column %q holds %q, not an RFC 3339 UTC time with its seconds", what, recs[0][i], cell)
				said[i] = true
			}
		}
	}
}

// column returns the cells of the column titled title, header excluded.
func column(t *testing.T, what string, recs [][]string, title string) []string {
	t.Helper()
	i := slices.Index(recs[0], title)
	if i < 0 {
		t.Fatalf("%s: no column %q in %q", what, title, recs[0])
	}
	var out []string
	for _, r := range recs[1:] {
		out = append(out, r[i])
	}
	return out
}

// TestEveryListingWritesCSV runs each listing with --csv against the
// simulator, holding a project and files named to break a spreadsheet,
// and reads every output back with encoding/csv.
func TestEveryListingWritesCSV(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, Control: true, NoRateLimit: true, Now: fixedNow}})
	s := e.Sim
	dir := t.TempDir()
	dbPath := filepath.Join(dir, store.FileName)
	vars := map[string]string{"VAULTDECK_TOKEN": s.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] },
			Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}, Clock: &instantClock{now: fixedNow()},
			OpenStore: func() (*store.Store, error) { return store.Open(dbPath) },
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(dbPath)
				return st, "default", err
			}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	pid, err := s.AddProject(sim.ProjectSpec{Name: formulaName})
	if err != nil {
		t.Fatal(err)
	}
	fids, err := s.AddFiles(pid, []sim.FileSpec{{Name: quotedName, Size: 2048}, {Name: "@SUM(A1).pdf"}})
	if err != nil {
		t.Fatal(err)
	}
	gone, _ := s.AddProject(sim.ProjectSpec{Name: quotedName})
	c := e.Client
	if _, err := c.DeleteProject(context.Background(), gone); err != nil {
		t.Fatal(err)
	}
	s.Advance(time.Hour) // the deletion finishes: the project is in the bin

	r := vd("projects", "--csv")
	recs := readCSV(t, "projects", r.stdout)
	if r.code != 0 || !slices.Equal(recs[0], records.ProjectHeader()) { // the console.s e writes the same
		t.Fatalf("projects: %d %q %q", r.code, recs[0], r.stderr)
	}
	names := column(t, "projects", recs, "name")
	if !slices.Contains(names, "'"+formulaName) || slices.Contains(names, formulaName) {
		t.Errorf("projects: the formula is not neutralised: %q", names)
	}
	i := slices.Index(names, "'"+formulaName)
	if row := recs[i+1]; row[6] != pid || row[1] != "2" || row[2] != "2048" {
		t.Errorf("projects row %q: want ID %s, 2 files, 2048 bytes (a number, not 2.0 kB)", row, pid)
	}

	r = vd("files", pid, "--csv")
	recs = readCSV(t, "files", r.stdout)
	if names := column(t, "files", recs, "name"); r.code != 0 || !slices.Contains(names, quotedName) || !slices.Contains(names, "'@SUM(A1).pdf") {
		t.Errorf("files: %d %q %q", r.code, names, r.stderr)
	}

	r = vd("status", fids[0], fids[1], "--csv")
	recs = readCSV(t, "status", r.stdout)
	if ids := column(t, "status", recs, "file id"); r.code != 0 || !slices.Equal(ids, fids) || recs[1][0] != quotedName {
		t.Errorf("status: %d %q %q", r.code, recs, r.stderr)
	}

	r = vd("recycle-bin", "--csv")
	recs = readCSV(t, "recycle-bin", r.stdout)
	if names := column(t, "recycle-bin", recs, "project"); r.code != 0 || !slices.Contains(names, quotedName) {
		t.Errorf("recycle-bin: %d %q %q", r.code, names, r.stderr)
	}
	if strings.Contains(r.stdout, " shown") {
		t.Errorf("recycle-bin: the count line is not a record:\n%s", r.stdout)
	}

	// users and audit: the same rows as --json, cell for cell where named
	r = vd("users", pid, "--csv")
	recs = readCSV(t, "users", r.stdout)
	var users []api.ProjectUser
	j := vd("users", pid, "--json")
	if json.Unmarshal([]byte(j.stdout), &users) != nil || len(users) == 0 || len(recs) != len(users)+1 {
		t.Fatalf("users: %d records for %d users: %q", len(recs), len(users), r.stdout)
	}
	if emails := column(t, "users", recs, "email"); emails[0] != users[0].Email {
		t.Errorf("users: %q, want %q first", emails, users[0].Email)
	}
	r = vd("audit", "--limit", "7", "--csv")
	recs = readCSV(t, "audit", r.stdout)
	if r.code != 0 || len(recs) != 8 || !slices.Equal(recs[0], records.AuditHeader()) {
		t.Errorf("audit: %d %d records %q", r.code, len(recs), r.stderr)
	}

	// the journal's runs, and the matter receipts of this machine
	up := filepath.Join(dir, "up")
	os.MkdirAll(up, 0o755)
	os.WriteFile(filepath.Join(up, "a.pdf"), []byte("a"), 0o644)
	if r = vd("upload", pid, up, "--csv"); r.code != 0 || !strings.Contains(r.stderr, "1 uploaded") {
		t.Fatalf("upload: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if recs = readCSV(t, "upload", r.stdout); len(recs) != 2 || recs[1][1] != "uploaded" {
		t.Errorf("upload result: %q", recs)
	}
	r = vd("uploads", "--csv")
	if recs = readCSV(t, "uploads", r.stdout); r.code != 0 || len(recs) != 2 || column(t, "uploads", recs, "PROJECT")[0] != pid {
		t.Errorf("uploads: %d %q", r.code, recs)
	}
	ms := s.Matters()
	mf := filepath.Join(dir, "m.csv")
	os.WriteFile(mf, []byte("Client_ID,Matter_ID\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"), 0o644)
	vd("matters", "delete", mf, "--yes")
	r = vd("matters", "receipts", "--csv")
	if recs = readCSV(t, "receipts", r.stdout); r.code != 0 || len(recs) != 2 || recs[1][0] != "1" || recs[1][4] != "m.csv" {
		t.Errorf("receipts: %d %q %q", r.code, recs, r.stderr)
	}
	r = vd("matters", "receipt", "1", "--csv")
	if recs = readCSV(t, "receipt", r.stdout); r.code != 0 || len(recs) != 2 || recs[0][1] != "client_id" {
		t.Errorf("receipt: %d %q %q", r.code, recs, r.stderr)
	}

	// the access review's listings, from two crawls with a grant between
	// and a third crawl left unfinished (its FINISHED is no time yet)
	accessListingsWriteCSV(t, vd, s, pid, dbPath)
}

func accessListingsWriteCSV(t *testing.T, vd func(args ...string) run, s *sim.Server, pid, dbPath string) {
	t.Helper()
	if r := vd("--max-rate", "100000", "access", "crawl"); r.code != 0 {
		t.Fatalf("crawl: %d %q", r.code, r.stderr)
	}
	var people []map[string]any
	if r := vd("access", "people", "--json"); json.Unmarshal([]byte(r.stdout), &people) != nil || len(people) == 0 {
		t.Fatalf("access people --json: %q", r.stderr)
	}
	outsider := outsiderOf(t, vd, s, pid)
	s.Advance(time.Minute) // the project changes after the first crawl
	if err := s.Share(pid, outsider, "MANAGE"); err != nil {
		t.Fatal(err)
	}
	if r := vd("--max-rate", "100000", "access", "crawl"); r.code != 0 {
		t.Fatalf("second crawl: %d %q", r.code, r.stderr)
	}
	st, err := store.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.OpenAccessSnapshot("default", "someone else", fixedNow(), fixedNow().Add(time.Hour), nil)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		head []string
		rows int
	}{
		{[]string{"access", "snapshots"}, []string{"SNAPSHOT", "STARTED (UTC)", "FINISHED (UTC)", "PROJECTS", "READ", "UNCHANGED", "PENDING", "GRANTS", "REQUESTS"}, 3},
		{[]string{"access", "people"}, []string{"NAME", "EMAIL", "PROJECTS", "MANAGE", "USER ID"}, -1},
		{[]string{"access", "user", outsider}, []string{"PROJECT", "ACCESS", "HOW", "PROJECT ID"}, -1},
		{[]string{"access", "project", pid}, []string{"NAME", "EMAIL", "ACCESS", "USER ID"}, -1},
		{[]string{"access", "diff"}, []string{"CHANGE", "EMAIL", "PROJECT", "FROM", "TO", "PROJECT ID"}, 1},
	} {
		what := strings.Join(c.args, " ")
		r := vd(append(c.args, "--csv")...)
		recs := readCSV(t, what, r.stdout)
		if r.code != 0 || !slices.Equal(recs[0], c.head) || c.rows >= 0 && len(recs) != c.rows+1 || len(recs) < 2 {
			t.Errorf("%s --csv: %d %q %q", what, r.code, recs, r.stderr)
		}
	}
}

func TestCSVExcludesJSON(t *testing.T) {
	_, vd := newSimEnv(t)
	for _, args := range [][]string{{"projects", "--csv", "--json"}, {"--jsonl", "audit", "--csv"}, {"--csv", "--json=true", "users"}} {
		if r := vd("", args...); r.code != ExitUsage || !strings.Contains(r.stderr, "--csv cannot be combined") || r.stdout != "" {
			t.Errorf("%q: %d %q %q", args, r.code, r.stdout, r.stderr)
		}
	}
	if r := vd("", "projects", "--csv=yes"); r.code != ExitUsage {
		t.Errorf("--csv=yes: %d %q", r.code, r.stderr)
	}
}
