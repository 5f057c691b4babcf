package e2e

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer/jqref"
)

// Issue 42's "Done when", through the built binary against `vaultdeck sim`.

// TestProjectsJQIsGhsThroughTheBinary: `projects --jq 'length'` prints one
// number, the project count; `.[] | .name`, `map(select(…)) | length` and
// `sort_by(.name) | .[0]` print what jq prints on the --json output; `--json
// name,id` prints those keys only, in that order.
func TestProjectsJQIsGhsThroughTheBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit")
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"]}
	run := func(args ...string) string {
		t.Helper()
		out, errs, code := vd(t, bin, env, "", append([]string{"--base-url", sp.base}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d %s", args, code, errs)
		}
		return out
	}
	doc := run("projects", "--json")
	var projects []map[string]any
	if err := json.Unmarshal([]byte(doc), &projects); err != nil || len(projects) < 2 {
		t.Fatalf("projects --json: %v %.200q", err, doc)
	}
	if got := run("projects", "--jq", "length"); got != strconv.Itoa(len(projects))+"\n" {
		t.Errorf("--jq length: %q, want the %d projects as one number", got, len(projects))
	}
	for _, expr := range []string{".[] | .name", "map(select(.files_count > 10)) | length", "sort_by(.name) | .[0]"} {
		if got, want := run("projects", "--jq", expr), jqref.Answer(t, doc, expr); got != want {
			t.Errorf("--jq %q:\n%s\njq's answer:\n%s", expr, got, want)
		}
	}
	cut := run("projects", "--json", "name,id")
	lines := strings.Split(strings.TrimSpace(cut), "\n")
	if len(lines) != len(projects)+2 || lines[0] != "[" || lines[len(lines)-1] != "]" {
		t.Fatalf("--json name,id: %d lines for %d projects:\n%s", len(lines), len(projects), cut)
	}
	for i, l := range lines[1 : len(lines)-1] {
		name, _ := json.Marshal(projects[i]["name"])
		id, _ := json.Marshal(projects[i]["id"])
		if want := `{"name":` + string(name) + `,"id":` + string(id) + `}`; strings.TrimSuffix(l, ",") != want {
			t.Errorf("--json name,id item %d: %s, want %s", i, l, want)
		}
	}
}

// rssHelperEnv runs TestRSSChildHelper as the parent of the command it
// names: the peak RSS the kernel reports for a child (getrusage's maxrss)
// is at least its parent's at the time of the exec (Go starts a child
// sharing the parent's memory), so a small parent of its own makes it the
// command's own peak, not this test process's.
const rssHelperEnv = "VAULTDECK_E2E_RSS_CHILD"

// TestRSSChildHelper is not a test: run as TestJQStreamsAHundredThousandBin's
// child, it runs the command in $VAULTDECK_E2E_RSS_CHILD (JSON arguments),
// counts its stdout's lines and prints "exit=N lines=N maxrss_kb=N".
func TestRSSChildHelper(t *testing.T) {
	t.Parallel()
	spec := os.Getenv(rssHelperEnv)
	if spec == "" {
		t.Skip("the helper of TestJQStreamsAHundredThousandBin")
	}
	var args []string
	if err := json.Unmarshal([]byte(spec), &args); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(args[0], args[1:]...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := 0
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		lines++
	}
	_ = cmd.Wait()
	fmt.Printf("exit=%d lines=%d maxrss_kb=%d\n", cmd.ProcessState.ExitCode(), lines, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
}

// TestJQStreamsAHundredThousandBin: the built binary streams a
// 100,000-entry bin through `--jq '.[] | .vault_project.name'` (one name a
// line, every entry) under 64 MB of peak RSS (the binary's own maxrss: a
// small parent, TestRSSChildHelper, starts it).
func TestJQStreamsAHundredThousandBin(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	const n = 100_000
	sp := startSim(t, bin, "--no-rate-limit", "--recycle-bin", strconv.Itoa(n))
	spec, _ := json.Marshal([]string{bin, "--base-url", sp.base, "--max-rate", "100000", "recycle-bin", "--jq", ".[] | .vault_project.name"})
	cmd := exec.Command(os.Args[0], "-test.run", "^TestRSSChildHelper$", "-test.count", "1", "-test.v")
	cmd.Env = childEnv(t, nil, rssHelperEnv+"="+string(spec), "VAULTDECK_TOKEN="+sp.tokens["admin"])
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var code, lines, kb int
	i := strings.Index(string(out), "exit=")
	if i < 0 {
		t.Fatalf("the helper said nothing: %s", out)
	}
	if _, err := fmt.Sscanf(string(out[i:]), "exit=%d lines=%d maxrss_kb=%d", &code, &lines, &kb); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	t.Logf("--jq '.[] | .vault_project.name' on %d entries: %d lines, exit %d, %v, peak RSS %.1f MiB", n, lines, code, time.Since(start).Round(time.Millisecond), float64(kb)/1024)
	// the simulator purges on its clock (four in 25 of the seed within a
	// day): a few may leave the bin while the test runs
	if code != 0 || lines > n || lines < n-200 {
		t.Errorf("exit %d, %d names for a %d-entry bin", code, lines, n)
	}
	if kb<<10 >= 64_000_000 {
		t.Errorf("peak RSS %d KB, want under 64 MB", kb)
	}
}

// TestPurgingWithinIsSoonestFirstThroughTheBinary: `recycle-bin
// --purging-within` lists soonest purge first in the table and every
// format (--csv, --json, --jsonl, --jq, --template) and through a saved
// view (`view NAME --csv`), while the service lists newest deletion first.
func TestPurgingWithinIsSoonestFirstThroughTheBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit")
	var home string // the views file is in VAULTDECK_HOME when it is set
	for _, v := range privateVars(t) {
		if k, d, _ := strings.Cut(v, "="); k == "VAULTDECK_HOME" {
			home = d
		}
	}
	if err := os.WriteFile(filepath.Join(home, "views"), []byte("purging = recycle-bin --purging-within 60d\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"]}
	run := func(args ...string) string {
		t.Helper()
		out, errs, code := vd(t, bin, env, "", append([]string{"--base-url", sp.base}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d %s", args, code, errs)
		}
		return out
	}
	var bin0 []struct {
		Resource string `json:"resource_id"`
		Purge    string `json:"recycle_bin_purged_scheduled_at"`
	}
	if err := json.Unmarshal([]byte(run("recycle-bin", "--json")), &bin0); err != nil || len(bin0) < 10 {
		t.Fatalf("recycle-bin --json: %v, %d entries", err, len(bin0))
	}
	purgeOf := map[string]time.Time{}
	var want []string // soonest purge first
	for _, e := range bin0 {
		at, err := time.Parse(time.RFC3339Nano, e.Purge)
		if err != nil {
			t.Fatal(err)
		}
		purgeOf[e.Resource] = at
		want = append(want, e.Resource)
	}
	service := slices.Clone(want)
	slices.SortStableFunc(want, func(a, b string) int { return purgeOf[a].Compare(purgeOf[b]) })
	if slices.Equal(service, want) {
		t.Fatal("the service's order is already soonest first: the test proves nothing")
	}
	fromJSON := func(doc string) (ids []string) {
		var items []struct {
			Resource string `json:"resource_id"`
		}
		if err := json.Unmarshal([]byte(doc), &items); err != nil {
			t.Fatalf("%v: %.200q", err, doc)
		}
		for _, it := range items {
			ids = append(ids, it.Resource)
		}
		return ids
	}
	fromCSV := func(doc string) (ids []string) {
		rows, err := csv.NewReader(strings.NewReader(doc)).ReadAll()
		if err != nil || len(rows) == 0 {
			t.Fatalf("%v: %.200q", err, doc)
		}
		col := slices.Index(rows[0], "project id")
		for _, r := range rows[1:] {
			ids = append(ids, r[col])
		}
		return ids
	}
	fromTable := func(doc string) (ids []string) {
		for _, l := range strings.Split(doc, "\n") {
			for _, f := range strings.Fields(l) {
				if _, ok := purgeOf[f]; ok {
					ids = append(ids, f)
				}
			}
		}
		return ids
	}
	w := []string{"recycle-bin", "--purging-within", "60d"}
	for _, c := range []struct {
		args []string
		ids  func(string) []string
	}{
		{w, fromTable},
		{append(slices.Clone(w), "--csv"), fromCSV},
		{append(slices.Clone(w), "--json"), fromJSON},
		{append(slices.Clone(w), "--jsonl"), func(s string) []string { return fromJSON("[" + strings.Join(strings.Fields(s), ",") + "]") }},
		{append(slices.Clone(w), "--jq", ".[] | .resource_id"), strings.Fields},
		{append(slices.Clone(w), "--template", `{{range .}}{{.resource_id}}{{"\n"}}{{end}}`), strings.Fields},
		{[]string{"view", "purging", "--csv"}, fromCSV},
	} {
		got := c.ids(run(c.args...))
		// the same entries in want's order; one the simulator purged
		// meanwhile (its purge time passed) may be missing
		at, now := 0, time.Now()
		for _, id := range got {
			j := slices.Index(want[at:], id)
			if j < 0 {
				t.Errorf("%q: %s out of the soonest-first order (or not in the bin): %v", c.args, id, got)
				break
			}
			for _, skipped := range want[at : at+j] {
				if purgeOf[skipped].After(now) {
					t.Errorf("%q leaves out %s, which purges at %v", c.args, skipped, purgeOf[skipped])
				}
			}
			at += j + 1
		}
		if len(got) < len(want)-2 {
			t.Errorf("%q: %d entries of %d", c.args, len(got), len(want))
		}
	}
}

// TestATenThousandPairDryRunThroughTheBinary: `matters delete --dry-run`
// on 10,000 pairs, most of which the service does not list, names every
// unknown pair and sends nothing: the service's log has no matter
// deletion and its matter list is as it was.
func TestATenThousandPairDryRunThroughTheBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit")
	var b strings.Builder
	b.WriteString("client_id,matter_id\n")
	live := 0
	for _, m := range sim.New(sim.Options{Seed: sim.DefaultSeed}).Matters() { // the process's twin
		if !m.V1 && !m.Deleted && !m.ExternallyLinked && m.ClientID != sim.ConflictClientID && !strings.HasPrefix(m.ClientID, "ACME") && live < 100 {
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
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"]}
	g := []string{"--base-url", sp.base}
	before, errs, code := vd(t, bin, env, "", append(g, "matters", "list", "--json")...)
	if code != 0 {
		t.Fatalf("matters list: %d %s", code, errs)
	}
	out, errs, code := vd(t, bin, env, "", append(g, "matters", "delete", "--dry-run", path)...)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("unknown %d", 10_000-live)) {
		t.Fatalf("dry run: exit %d %s\n%.2000s", code, errs, out)
	}
	named := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 4 && f[3] == "unknown" && strings.HasPrefix(f[1], "C") {
			named[f[1]+"/"+f[2]] = true
		}
	}
	for i := live; i < 10_000; i++ {
		if p := fmt.Sprintf("C%05d/M-%05d", i, i); !named[p] {
			t.Errorf("the dry run does not name the unknown pair %s (%d named)", p, len(named))
			break
		}
	}
	after, _, _ := vd(t, bin, env, "", append(g, "matters", "list", "--json")...)
	if after != before {
		t.Error("the matter list changed after a dry run")
	}
	logged, errs, code := vd(t, bin, env, "", append(g, "audit", "--type", sim.AuditAPIMatters, "--json")...)
	if code != 0 || strings.TrimSpace(logged) != "[]" {
		t.Errorf("the service logged matter changes after a dry run: %d %s %.500s", code, errs, logged)
	}
}

// TestThePlantedBurstIsInTheBinThroughTheBinary: every project deletion of
// `sim --audit-burst 15` names a project the recycle bin holds, deleted by
// the entry's user, at or after the entry.
func TestThePlantedBurstIsInTheBinThroughTheBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--no-rate-limit", "--audit-burst", "15")
	env := []string{"VAULTDECK_TOKEN=" + sp.tokens["admin"]}
	g := []string{"--base-url", sp.base}
	out, errs, code := vd(t, bin, env, "", append(g, "audit", "--type", sim.AuditAPIDeleteProject, "--ip", sim.DefaultBurstIP, "--json")...)
	var burst []struct {
		Timestamp string `json:"timestamp"`
		User      string `json:"user"`
		Data      struct {
			ProjectID string `json:"project_id"`
		} `json:"data"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &burst) != nil || len(burst) != 15 {
		t.Fatalf("the burst: exit %d %s, %d entries: %.300s", code, errs, len(burst), out)
	}
	out, errs, code = vd(t, bin, env, "", append(g, "recycle-bin", "--json")...)
	var bin0 []struct {
		Resource  string `json:"resource_id"`
		By        string `json:"deleted_by_user_email"`
		DeletedAt string `json:"deleted_at"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &bin0) != nil {
		t.Fatalf("recycle-bin: %d %s", code, errs)
	}
	for _, x := range burst {
		i := slices.IndexFunc(bin0, func(e struct {
			Resource  string `json:"resource_id"`
			By        string `json:"deleted_by_user_email"`
			DeletedAt string `json:"deleted_at"`
		}) bool {
			return e.Resource == x.Data.ProjectID
		})
		if i < 0 {
			t.Errorf("the burst's deletion of %s at %s is not in the bin", x.Data.ProjectID, x.Timestamp)
			continue
		}
		at, _ := time.Parse("2006-01-02T15:04:05.999999", x.Timestamp)
		del, _ := time.Parse(time.RFC3339Nano, bin0[i].DeletedAt)
		if !strings.EqualFold(bin0[i].By, x.User) || del.Before(at) {
			t.Errorf("%s: the log says %s deleted it at %s, the bin %s at %s", x.Data.ProjectID, x.User, x.Timestamp, bin0[i].By, bin0[i].DeletedAt)
		}
	}
}
