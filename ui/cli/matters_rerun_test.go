package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// The preview of a re-run says what the receipts say (issue 25 case 7, the
// place a person decides): after receipt 2 restored what receipt 1 deleted,
// `matters delete m.csv` (the same file again) showed only the file, the
// pairs and the time, nothing of receipt 1 or of the matters it would
// delete again; the warning was only in `matters receipt 1`, which nobody
// about to re-run a file reads first.
func TestRerunPreviewSaysWhatItDeletesAgain(t *testing.T) {
	e := newMattersEnv(t)
	ms := e.live(2)
	p := e.file(t, "m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	if r := e.vd("", "matters", "delete", p, "--dry-run"); r.code != 0 || strings.Contains(r.stdout, "earlier") {
		t.Fatalf("a first run's preview names an earlier run: %+v", r)
	}
	for _, args := range [][]string{{"matters", "delete", p, "--yes"}, {"matters", "restore", "--receipt", "1", "--yes"}} {
		if r := e.vd("", args...); r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	want := "earlier   receipt 1 deleted this file's pairs: re-running m.csv now would delete again the 2 matters receipt 2 restored"
	if r := e.vd("", "matters", "delete", p, "--dry-run"); r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("the re-run's preview lacks %q:\n%s", want, r.stdout)
	}
	r := e.vd("", "--json", "matters", "delete", p, "--dry-run")
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("%v: %q", err, r.stdout)
	}
	if ea, _ := m["earlier"].([]any); len(ea) != 1 || !strings.Contains(ea[0].(string), "delete again the 2 matters") {
		t.Errorf("--json earlier: %v", m["earlier"])
	}
}
