package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// A receipt says what is true now (issue 25 case 7): once a restore has
// brought back what a deletion deleted, `matters receipt`, `matters
// receipts` and --json say so, and that re-running the file would delete
// those matters again. Before, the deletion's receipt read as if nothing
// had happened since.
func TestReceiptSaysRestoredAndWhatRerunDoes(t *testing.T) {
	e := newMattersEnv(t)
	ms := e.live(2)
	p := e.file(t, "m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	if r := e.vd("", "matters", "delete", p, "--yes"); r.code != 0 {
		t.Fatalf("delete: %+v", r)
	}
	r := e.vd("", "matters", "receipt", "1")
	if !strings.Contains(r.stdout, "re-run    re-running m.csv now would delete only") {
		t.Errorf("the deletion's receipt does not say what re-running the file does:\n%s", r.stdout)
	}
	if r := e.vd("", "matters", "restore", "--receipt", "1", "--yes"); r.code != 0 {
		t.Fatalf("restore: %+v", r)
	}
	r = e.vd("", "matters", "receipt", "1")
	for _, want := range []string{"status    complete; restored by receipt 2 (2 pairs)",
		"re-run    re-running m.csv now would delete again the 2 matters receipt 2 restored"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("after the restore, receipt 1 lacks %q:\n%s", want, r.stdout)
		}
	}
	r = e.vd("", "matters", "receipts")
	if row := lineWith(r.stdout, "delete"); !strings.Contains(row, "restored by receipt 2") {
		t.Errorf("the receipts list does not say receipt 1 was restored: %q", row)
	}
	r = e.vd("", "--json", "matters", "receipt", "1")
	var m map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("%v: %q", err, r.stdout)
	}
	if by, _ := m["restored_by"].([]any); len(by) != 1 || by[0] != 2.0 || m["restored"] != 2.0 {
		t.Errorf("--json: restored_by %v, restored %v", m["restored_by"], m["restored"])
	}
	if s, _ := m["rerun"].(string); !strings.Contains(s, "delete again the 2 matters") {
		t.Errorf("--json rerun %q", m["rerun"])
	}
}

// An interrupted deletion (the process killed: the receipt stays
// "running") said "re-running the file is safe" and kept saying it after a
// restore brought its matters back, when re-running would delete them
// again. The receipt is made here as a killed run leaves it: the first
// request's answer recorded, the rest never written.
func TestInterruptedReceiptNeverCallsRerunSafeAfterRestore(t *testing.T) {
	e := newMattersEnv(t)
	if _, err := e.s.AddMatter(sim.MatterSpec{ClientID: "C7", MatterID: "M1", Deleted: true}); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(e.dir, "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.StartReceipt(store.Receipt{Action: "delete", Profile: "p", Endpoint: "http://x", FileName: "big.csv", Pairs: 3})
	if err == nil {
		err = st.AddReceiptItems(id, []store.ReceiptItem{{Line: 2, ClientID: "C7", MatterID: "M1", Result: "deleted", Request: 1}})
	}
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	r := e.vd("", "matters", "receipt", "1")
	if strings.Contains(r.stdout, "safe") {
		t.Errorf("an interrupted receipt calls re-running safe:\n%s", r.stdout)
	}
	if r := e.vd("", "matters", "restore", "--receipt", "1", "--yes"); r.code != 0 {
		t.Fatalf("restore: %+v", r)
	}
	for _, args := range [][]string{{"matters", "receipt", "1"}, {"matters", "receipts"}} {
		r := e.vd("", args...)
		if strings.Contains(r.stdout, "safe") || !strings.Contains(r.stdout, "restored by receipt 2 (1 pair)") {
			t.Errorf("%s after the restore:\n%s", strings.Join(args, " "), r.stdout)
		}
	}
	r = e.vd("", "matters", "receipt", "1")
	if !strings.Contains(r.stdout, "would delete again the 1 matter receipt 2 restored; also the pairs this run never recorded") {
		t.Errorf("the re-run line of a restored, interrupted deletion:\n%s", r.stdout)
	}
}

func lineWith(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// The adversary's next step (issue 25 case 7): restore, then re-run the
// file. Receipt 1 went on saying a re-run "would delete again the 2
// matters receipt 2 restored" when receipt 3 had already deleted them.
func TestReceiptSaysDeletedAgainAfterRestoreAndRerun(t *testing.T) {
	e := newMattersEnv(t)
	ms := e.live(2)
	p := e.file(t, "m.csv", "client_id,matter_id\n"+ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	for _, args := range [][]string{{"matters", "delete", p, "--yes"}, {"matters", "restore", "--receipt", "1", "--yes"}, {"matters", "delete", p, "--yes"}} {
		if r := e.vd("", args...); r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
	}
	r := e.vd("", "matters", "receipt", "1")
	if !strings.Contains(r.stdout, "restored by receipt 2 (2 pairs); deleted again by receipt 3 (2 pairs)") ||
		strings.Contains(r.stdout, "would delete again") {
		t.Errorf("receipt 1 after its restore was deleted again:\n%s", r.stdout)
	}
	// restoring receipt 1 again sends nothing, and says where they went
	r = e.vd("", "matters", "restore", "--receipt", "1", "--yes")
	if r.code != 0 || !strings.Contains(r.stderr, "deleted again since, by receipt 3: restoring that brings them back") {
		t.Errorf("restore of receipt 1 after receipt 3: %+v", r)
	}
}
