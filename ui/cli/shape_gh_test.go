package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/cli/printer/jqref"
)

// TestJQSeesTheWholeResultAsGhDoes: --jq is gh's --jq, the expression run
// on the whole output, a listing being an array, whether it streams (it
// begins by iterating the listing) or holds the listing; each answer is
// gojq's own on the --json output. The cases first, then their
// neighbours.
func TestJQSeesTheWholeResultAsGhDoes(t *testing.T) {
	_, vd := shapeSim(t)
	for _, cmd := range [][]string{{"projects"}, {"recycle-bin"}, {"audit", "--limit", "40", "--until", "2025-06-01"}} {
		whole := vd(append(cmd, "--json")...)
		if whole.code != 0 {
			t.Fatalf("%q --json: %d %s", cmd, whole.code, whole.stderr)
		}
		doc := whole.stdout
		field := map[string]string{"projects": ".name", "recycle-bin": ".vault_project.name", "audit": ".type"}[cmd[0]]
		for _, expr := range []string{
			"length", ".[] | " + field, "map(select(.files_count > 10)) | length", "sort_by(.name) | .[0]",
			".[]", ".[]" + field, ".[] | " + field + ", .id", "map(" + field + ")", "[.[] | " + field + "]",
			"map(select(.files_count > 10))", "[.[] | select(.id)] | length", "map(.id) | length",
			"def f: " + field + "; .[] | f", ".[0]", "group_by(.id) | length", "first(.[]) | .id", ". as $all | $all | length",
			".[] as $x | length", "def length: 7; length", "def map(f): 1; map(.x)",
		} {
			want := jqref.Answer(t, doc, expr)
			r := vd(append(cmd, "--jq", expr)...)
			if r.code != 0 || r.stdout != want {
				t.Errorf("%q --jq %q: exit %d %s\nstdout %q\nwant   %q", cmd, expr, r.code, r.stderr, r.stdout, want)
			}
		}
	}
}

// TestJQCountIsOneNumber: the case, --jq 'length' on projects is
// the project count, once.
func TestJQCountIsOneNumber(t *testing.T) {
	_, vd := shapeSim(t)
	var projects []json.RawMessage
	r := vd("projects", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &projects); err != nil || len(projects) < 2 {
		t.Fatalf("projects --json: %v", err)
	}
	r = vd("projects", "--jq", "length")
	if want := itoa(len(projects)) + "\n"; r.code != 0 || r.stdout != want {
		t.Errorf("projects --jq length: exit %d %q, want %q (%s)", r.code, r.stdout, want, r.stderr)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestJQHoldIsBoundedAndSaysSo: an expression that needs the whole listing
// holds it up to --jq-hold and, past it, prints nothing and says what to
// do, exit 1; the streaming form of the same question still answers.
func TestJQHoldIsBoundedAndSaysSo(t *testing.T) {
	_, vd := shapeSim(t)
	r := vd("projects", "--jq", "sort_by(.name) | .[0].name", "--jq-hold", "2KB")
	if r.code != ExitError || r.stdout != "" || !strings.Contains(r.stderr, "--jq-hold") || !strings.Contains(r.stderr, "2.0 kB") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("over the hold: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = vd("projects", "--jq", "map(.name) | length", "--jq-hold", "2KB")
	if r.code != 0 || r.stdout == "" {
		t.Errorf("a streaming expression is held to no bound: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = vd("projects", "--jq-hold", "lots", "--jq", "length")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "--jq-hold") {
		t.Errorf("a bad size: exit %d %q", r.code, r.stderr)
	}
}

// TestJQOnAListingSaysItIsAnArray: an expression written per item (the
// old meaning) fails on gh's with a hint at the form that runs per item.
func TestJQOnAListingSaysItIsAnArray(t *testing.T) {
	_, vd := shapeSim(t)
	r := vd("projects", "--jq", ".name")
	if r.code != ExitError || !strings.Contains(r.stderr, "'.[] | .name'") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// TestTemplateNumbersCompareAsNumbers: a template compares the service's
// numbers with literals ({{if gt .files_count 30}}), as gh's templates do,
// and prints them as sent (a 19-digit ID is not rounded).
func TestTemplateNumbersCompareAsNumbers(t *testing.T) {
	_, vd := shapeSim(t)
	want := vd("projects", "--jq", ".[] | select(.files_count > 30) | .name")
	got := vd("projects", "--template", `{{range .}}{{if gt .files_count 30}}{{.name}}{{"\n"}}{{end}}{{end}}`)
	if want.code != 0 || want.stdout == "" || got.code != 0 || got.stdout != want.stdout {
		t.Errorf("gt .files_count 30: exit %d %s\n got %q\nwant %q", got.code, got.stderr, got.stdout, want.stdout)
	}
	for _, tc := range []struct{ body, tpl, want string }{
		{`{"total":1,"items":[{"id":"a","vault_project":{"files_count":1234567890123456789,"name":"x"}}]}`, `{{range .}}{{.vault_project.files_count}} {{if gt .vault_project.files_count 2.5}}big{{end}}{{"\n"}}{{end}}`, "1234567890123456789 big\n"},
		{`{"total":1,"items":[{"id":"a","vault_project":{"files_count":2.5,"name":"x"}}]}`, `{{range .}}{{.vault_project.files_count}} {{if lt .vault_project.files_count 3}}small{{end}} {{if eq .vault_project.files_count 2.5}}eq{{end}}{{"\n"}}{{end}}`, "2.5 small eq\n"},
		{`{"total":1,"items":[{"id":"a","vault_project":{"files_count":1e3,"name":"x"}}]}`, `{{range .}}{{if ge .vault_project.files_count 1000}}ok{{end}}{{"\n"}}{{end}}`, "ok\n"},
	} {
		r := runAgainst(t, jsonBody(tc.body), "recycle-bin", "--template", tc.tpl)
		if r.code != 0 || r.stdout != tc.want {
			t.Errorf("%s: exit %d %q %q, want %q", tc.tpl, r.code, r.stdout, r.stderr, tc.want)
		}
	}
}
