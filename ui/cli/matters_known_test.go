package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 42's case: a 10,000-pair dry run names the pairs the service does
// not list, before anything is sent (the figure: go test -v -run
// TestATenThousandPairDryRunNamesTheUnknownPairs ./ui/cli).
func TestATenThousandPairDryRunNamesTheUnknownPairs(t *testing.T) {
	s, vd := newSimEnv(t)
	var b strings.Builder
	b.WriteString("client_id,matter_id\n")
	live := 0
	for _, m := range s.Matters() {
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != "10482" && !strings.HasPrefix(m.ClientID, "ACME") && live < 153 {
			b.WriteString(m.ClientID + "," + m.MatterID + "\n")
			live++
		}
	}
	for i := live; i < 10_000; i++ {
		fmt.Fprintf(&b, "C%05d,M-%05d\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "pairs.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	before := s.Matters()
	start := time.Now()
	r := vd("", "matters", "delete", "--dry-run", path)
	took := time.Since(start)
	if r.code != 0 {
		t.Fatalf("dry run: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{fmt.Sprintf("exists %d, already_deleted 0, unknown %d, conflict 0", live, 10_000-live),
		"pairs the service does not list, which the deletion would answer already_absent", "STANDING"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the dry run lacks %q:\n%s", want, r.stdout[:min(2000, len(r.stdout))])
		}
	}
	named := 0
	for _, l := range strings.Split(r.stdout, "\n") {
		if f := strings.Fields(l); len(f) >= 4 && f[3] == "unknown" && strings.HasPrefix(f[1], "C") {
			named++
		}
	}
	if named != 10_000-live {
		t.Errorf("the dry run names %d unknown pairs, want %d", named, 10_000-live)
	}
	after := s.Matters()
	for i := range before {
		if before[i].Deleted != after[i].Deleted {
			t.Fatalf("the dry run deleted %s", before[i].StoredName)
		}
	}
	r = vd("", "--json", "matters", "delete", "--dry-run", path)
	var j struct {
		Standing map[string]int `json:"standing"`
		Pairs    []struct {
			Line     int    `json:"line"`
			Standing string `json:"standing"`
		} `json:"pairs_standing"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &j); err != nil || j.Standing["unknown"] != 10_000-live || len(j.Pairs) != 10_000 || j.Pairs[9_999].Line != 10_001 {
		t.Errorf("--json: %v %v %d", err, j.Standing, len(j.Pairs))
	}
	t.Logf("a 10,000-pair dry run against %d listed matters: %v (text)", len(before), took)
}

// `matters list` prints the service's list, deleted matters too, with the
// simulator's pairs; --deleted and --present narrow it.
func TestMattersListPrintsTheServicesList(t *testing.T) {
	s, vd := newSimEnv(t)
	all := s.Matters()
	deleted := 0
	for _, m := range all {
		if m.Deleted {
			deleted++
		}
	}
	r := vd("", "--json", "matters", "list")
	var list []struct {
		Name, ClientID, MatterID string
		DeletedAt                *string `json:"deleted_at"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); r.code != 0 || err != nil || len(list) != len(all) {
		t.Fatalf("matters list --json: exit %d, %v, %d of %d\n%s", r.code, err, len(list), len(all), r.stderr)
	}
	r = vd("", "matters", "list", "--deleted", "--csv")
	if rows := strings.Count(strings.TrimSpace(r.stdout), "\n"); r.code != 0 || rows != deleted || !strings.HasPrefix(r.stdout, "NAME,CLIENT_ID,MATTER_ID,STATUS") {
		t.Errorf("--deleted --csv: exit %d, %d rows, want %d\n%s", r.code, rows, deleted, r.stdout)
	}
	r = vd("", "matters", "list", "--present")
	if r.code != 0 || strings.Contains(r.stdout, " deleted ") || !strings.Contains(r.stdout, "20917.2022-0114") {
		t.Errorf("--present: exit %d\n%s", r.code, r.stdout)
	}
}
