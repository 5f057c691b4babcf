package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command's one result (a matter run's plan or report, a receipt, an
// upload's report) is JSON when --json, --jq or --template asked for JSON,
// whatever --jsonl says (--jsonl is for listings); and a receipt exported
// with --export json is the receipt's JSON whatever the format flags.
// Found by comparing every command's output before and after the command
// line was cut by noun: these printed nothing, or were refused, after it.

func TestMattersResultsUnderJSONLinesAndShaping(t *testing.T) {
	e := newMattersEnv(t)
	p := e.file(t, "m.csv", spreadsheet(e.live(2)))
	r := e.vd("", "--jsonl", "--jq", ".pairs", "matters", "delete", p, "--dry-run")
	if r.code != ExitOK || r.stdout != "4\n" {
		t.Errorf("--jsonl --jq .pairs on a dry run: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	r = e.vd("", "--jsonl", "--template", "{{.to_send}}\n", "matters", "delete", p, "--dry-run")
	if r.code != ExitOK || r.stdout != "3\n" {
		t.Errorf("--jsonl --template on a dry run: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	r = e.vd("", "--jsonl", "--jq", ".counts.deleted", "matters", "delete", p, "--yes")
	if r.code != ExitPartial || r.stdout != "2\n" { // the empty client ID is refused: exit 3
		t.Fatalf("--jsonl --jq on a run: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	r = e.vd("", "--jsonl", "--jq", ".id", "matters", "receipt", "1")
	if r.code != ExitOK || r.stdout != "1\n" {
		t.Errorf("--jsonl --jq on a receipt: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
	for _, args := range [][]string{{"--export", "json"}, {"--csv", "--export", "json"}} {
		r = e.vd("", append([]string{"matters", "receipt", "1"}, args...)...)
		var rc struct {
			ID    int              `json:"id"`
			Items []map[string]any `json:"items"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rc); r.code != ExitOK || err != nil || rc.ID != 1 || len(rc.Items) == 0 {
			t.Errorf("receipt 1 %s: exit %d, %v, stdout %q, stderr %q", strings.Join(args, " "), r.code, err, r.stdout, r.stderr)
		}
	}
}

func TestUploadReportUnderJSONLinesAndShaping(t *testing.T) {
	_, pid, vd := newUploadEnv(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "e.txt"), []byte("evidence"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := vd("--jsonl", "--jq", ".uploaded | length", "upload", pid, filepath.Join(dir, "e.txt"))
	if r.code != ExitOK || r.stdout != "1\n" {
		t.Errorf("upload --jsonl --jq: exit %d, %q, %q", r.code, r.stdout, r.stderr)
	}
}
