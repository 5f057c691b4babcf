package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// TestJSONFieldsAsGh: --json name,id (gh's spelling, with a space, or with
// =) prints those keys only, in that order, for every item of a listing
// and for a single object; with --jq the expression reads the cut items;
// bare --json keeps the whole objects.
func TestJSONFieldsAsGh(t *testing.T) {
	_, vd := shapeSim(t)
	var whole []map[string]any
	r := vd("projects", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &whole); err != nil || len(whole) < 2 || len(whole[0]) < 5 {
		t.Fatalf("bare --json: %v %q", err, r.stdout)
	}
	for _, args := range [][]string{{"projects", "--json", "name,id"}, {"projects", "--json=name,id"}, {"--json", "name,id", "projects"}} {
		r := vd(args...)
		var got []json.RawMessage
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil || len(got) != len(whole) {
			t.Fatalf("%q: exit %d %q %q", args, r.code, r.stdout, r.stderr)
		}
		for i, raw := range got {
			want, _ := json.Marshal(whole[i]["name"])
			wantID, _ := json.Marshal(whole[i]["id"])
			if string(raw) != `{"name":`+string(want)+`,"id":`+string(wantID)+`}` {
				t.Errorf("%q item %d: %s", args, i, raw)
			}
		}
	}
	r = vd("projects", "--json", "name", "--jq", ".[0] | keys")
	if r.code != 0 || r.stdout != "[\"name\"]\n" {
		t.Errorf("--json name --jq: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("recycle-bin", "--json", "id,vault_project", "--jq", ".[0] | keys")
	if r.code != 0 || r.stdout != "[\"id\",\"vault_project\"]\n" {
		t.Errorf("recycle-bin --json id,vault_project: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("whoami", "--json", "email")
	if var1 := map[string]any{}; r.code != 0 || json.Unmarshal([]byte(r.stdout), &var1) != nil || len(var1) != 1 || var1["email"] == nil {
		t.Errorf("whoami --json email: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// `--json projects` stays the command.
	if r := vd("--json", "projects"); r.code != 0 || json.Unmarshal([]byte(r.stdout), &whole) != nil {
		t.Errorf("--json projects: %d %q", r.code, r.stderr)
	}
}

// TestJSONUnknownFieldListsTheFields: an unknown field is a usage error
// before any request, naming the fields there are.
func TestJSONUnknownFieldListsTheFields(t *testing.T) {
	requests, vd := shapeSim(t)
	r := vd("projects", "--json", "name,nosuch")
	if r.code != ExitUsage || r.stdout != "" || !strings.Contains(r.stderr, `unknown JSON field "nosuch"`) || !strings.Contains(r.stderr, "available fields: ") ||
		!strings.Contains(r.stderr, "files_count") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests before the usage error", n)
	}
	r = vd("whoami", "--json", "nosuch")
	if r.code == 0 || !strings.Contains(r.stderr, `unknown JSON field "nosuch"`) || !strings.Contains(r.stderr, "email") {
		t.Errorf("whoami: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = vd("projects", "--json", "name,-x")
	if r.code != ExitUsage {
		t.Errorf("a bad list: exit %d %q", r.code, r.stderr)
	}
}

// TestJoinJSONFields: the word after --json is its fields unless it is a
// command's name or not a list of names.
func TestJoinJSONFields(t *testing.T) {
	cmd := func(s string) bool { return s == "projects" || s == "stats" }
	for in, want := range map[string]string{
		"projects --json name,id":     "projects --json=name,id",
		"--json name projects":        "--json=name projects",
		"--json projects":             "--json projects",
		"audit --json stats":          "audit --json stats",
		"person --json a@b.example":   "person --json a@b.example",
		"status --json 0f6c1d2e-2b8a": "status --json 0f6c1d2e-2b8a",
		"x -- --json name":            "x -- --json name",
		"projects --json --jq .":      "projects --json --jq .",
	} {
		if got := strings.Join(printer.JoinJSONFields(strings.Fields(in), cmd), " "); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
