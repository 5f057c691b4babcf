package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestEveryOutputHasOneShapeAFormat (issue 42): gh's conventions, held
// by every command alike. A listing (a service's, or one vaultdeck makes
// of it: the bin by deleter, the client matters) is under --json one JSON
// array of objects, also with --json FIELDS and whatever its flags (the
// bin's purge window, its grouping); under --jsonl the same objects one a
// line; --jq sees that array (`length` is its length). A summary (one
// report: whoami, version, person, audit stats) is one object under
// --json, the same object on one line under --jsonl, and --jq sees it.
// Before, `recycle-bin --json` printed the {"items":…,"total":…} envelope
// while `recycle-bin --json id` and `--by-deleter --json` printed arrays,
// and `person`/`audit stats` refused --jsonl (the help said one object).
func TestEveryOutputHasOneShapeAFormat(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true, Now: fixedNow, Leaver: true, AuditBurst: sim.AuditBurst{Count: 5}}})
	dir := t.TempDir()
	vars := map[string]string{"VAULTDECK_TOKEN": e.Sim.Token("admin"), "VAULTDECK_BASE_URL": e.URL}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }, Limits: simtest.Unlimited(),
			OpenStore: func() (*store.Store, error) { return store.Open(filepath.Join(dir, "vaultdeck.db")) },
			Journal: func(string) (*store.Store, string, error) {
				st, err := store.Open(filepath.Join(dir, "vaultdeck.db"))
				return st, "default", err
			},
			Clock: &simtest.Clock{Sim: e.Sim}}
		code := Main(context.Background(), args, env)
		return run{code, out.String(), errb.String()}
	}
	if r := vd("audit", "sync"); r.code != 0 {
		t.Fatalf("audit sync: %d %s", r.code, r.stderr)
	}
	project := e.Sim.Projects()[0].ID
	listings := [][]string{
		{"projects"}, {"recycle-bin"}, {"recycle-bin", "--purging-within", "7d"}, {"recycle-bin", "--by-deleter"},
		{"recycle-bin", "--by-deleter", "--purging-within", "30d"}, {"recycle-bin", "--name", "a"},
		{"matters", "list"}, {"audit", "--limit", "20"}, {"users", project}, {"files", project},
	}
	for _, cmd := range [][]string{{"uploads"}, {"matters", "receipts"}, {"access", "snapshots"}, {"access", "receipts"}} {
		js, lines, n := vd(append(cmd, "--json")...), vd(append(cmd, "--jsonl")...), vd(append(cmd, "--jq", "length")...)
		if js.code != 0 || js.stdout != "[]\n" || lines.code != 0 || lines.stdout != "" || n.code != 0 || n.stdout != "0\n" {
			t.Errorf("%q, an empty listing: --json %d %q %s, --jsonl %d %q, --jq length %d %q", cmd, js.code, js.stdout, js.stderr, lines.code, lines.stdout, n.code, n.stdout)
		}
	}
	for _, cmd := range listings {
		js := vd(append(cmd, "--json")...)
		var items []map[string]json.RawMessage
		if err := json.Unmarshal([]byte(js.stdout), &items); js.code != 0 || err != nil || len(items) == 0 {
			t.Errorf("%q --json: exit %d %s, not a JSON array of objects (%v): %.120q", cmd, js.code, js.stderr, err, js.stdout)
			continue
		}
		var field string
		for k := range items[0] {
			if field == "" || k < field {
				field = k
			}
		}
		cut := vd(append(cmd, "--json", field)...)
		var cutItems []map[string]json.RawMessage
		if err := json.Unmarshal([]byte(cut.stdout), &cutItems); cut.code != 0 || err != nil || len(cutItems) != len(items) || len(cutItems[0]) != 1 {
			t.Errorf("%q --json %s: exit %d %s, not an array of %d one-field objects (%v): %.120q", cmd, field, cut.code, cut.stderr, len(items), err, cut.stdout)
		}
		lines := vd(append(cmd, "--jsonl")...)
		got := strings.Split(strings.TrimSuffix(lines.stdout, "\n"), "\n")
		if lines.code != 0 || len(got) != len(items) {
			t.Errorf("%q --jsonl: exit %d %s, %d lines for %d items", cmd, lines.code, lines.stderr, len(got), len(items))
		}
		for i, l := range got {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal([]byte(l), &obj); err != nil {
				t.Errorf("%q --jsonl line %d is not an object: %.120q", cmd, i+1, l)
				break
			}
		}
		if n := vd(append(cmd, "--jq", "length")...); n.code != 0 || n.stdout != strconv.Itoa(len(items))+"\n" {
			t.Errorf("%q --jq length: exit %d %s %q, want %d", cmd, n.code, n.stderr, n.stdout, len(items))
		}
	}
	summaries := [][]string{{"whoami"}, {"version"}, {"person", e.Sim.Leaver()}, {"audit", "stats", "--since", "7d"}}
	for _, cmd := range summaries {
		js := vd(append(cmd, "--json")...)
		var obj map[string]any
		if err := json.Unmarshal([]byte(js.stdout), &obj); js.code != 0 || err != nil {
			t.Errorf("%q --json: exit %d %s, not one object (%v): %.120q", cmd, js.code, js.stderr, err, js.stdout)
			continue
		}
		line := vd(append(cmd, "--jsonl")...)
		var same map[string]any
		if err := json.Unmarshal([]byte(line.stdout), &same); line.code != 0 || err != nil || strings.Count(line.stdout, "\n") != 1 {
			t.Errorf("%q --jsonl: exit %d %s, not the object on one line (%v): %.120q", cmd, line.code, line.stderr, err, line.stdout)
		} else if a, b := len(obj), len(same); a != b {
			t.Errorf("%q --jsonl has %d fields, --json %d", cmd, b, a)
		}
		if ty := vd(append(cmd, "--jq", "type")...); ty.code != 0 || ty.stdout != "object\n" {
			t.Errorf("%q --jq type: exit %d %s %q", cmd, ty.code, ty.stderr, ty.stdout)
		}
	}
}

// TestNoProfilesIsAnEmptyListing: `profiles` with no profile yet says so
// to a person, and is the empty listing to a script: `[]` under --json,
// 0 to --jq length. Before, --json printed "No profiles yet. Run
// `vaultdeck login` to create one." and --jq said the output was not JSON.
func TestNoProfilesIsAnEmptyListing(t *testing.T) {
	vars := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "HOME": t.TempDir()}
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		env := Std(strings.NewReader(""), &out, &errb, func(k string) string { return vars[k] })
		return run{Main(context.Background(), args, env), out.String(), errb.String()}
	}
	if r := vd("profiles"); r.code != 0 || !strings.Contains(r.stdout, "No profiles yet") {
		t.Errorf("profiles: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	if r := vd("profiles", "--json"); r.code != 0 || r.stdout != "[]\n" {
		t.Errorf("profiles --json: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
	if r := vd("profiles", "--jq", "length"); r.code != 0 || r.stdout != "0\n" {
		t.Errorf("profiles --jq length: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
}
