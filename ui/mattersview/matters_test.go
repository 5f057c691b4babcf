package mattersview

import (
	"context"
	"os/user"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

func TestNotAvailableReadOnly(t *testing.T) {
	h := newHarness(t, true)
	h.press("n")
	if v := h.view(); !strings.Contains(v, "not available in a read-only session") {
		t.Fatalf("view: %s", v)
	}
	if h.p.(*Model).mode != modeList || len(h.p.Help()) != 0 {
		t.Fatal("keys act in a read-only session")
	}
}

// The whole flow by keyboard: open a file with Tab completion, preview,
// a wrong count refuses, the right count deletes, outcomes filter by
// outcome and code, restore brings the matters back.
func TestDeletePreviewReceiptRestore(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(2)
	body := "\uFEFFclient_id,matter_id,note\r\n"
	for _, m := range ms {
		body += m.ClientID + ",\"" + m.MatterID + "\",\"a, b\"\r\n\r\n"
	}
	body += sim.LinkedClientID + "," + sim.LinkedMatterID + ",x\r\n" + " ," + "M-9,x\r\n" + ms[0].ClientID + " ," + ms[0].MatterID + ",again\r\n"
	h.writeFile("matters-2024.csv", body)
	h.writeFile("matters-2025.csv", "C,M\n")
	h.writeFile("other.txt", "")

	h.press("n")
	h.burst(h.dir + "/ma") // a burst (paste) goes whole into the path input
	h.press("tab")
	m := h.p.(*Model)
	if got := m.path.Value(); got != h.dir+"/matters-202" || len(m.matches) != 2 {
		t.Fatalf("tab: %q %v", got, m.matches)
	}
	if v := h.view(); !strings.Contains(v, "matters-2024.csv") || !strings.Contains(v, "matters-2025.csv") {
		t.Fatalf("candidates not shown:\n%s", v)
	}
	h.typeText("4") // one key at a time
	h.press("tab", "enter")
	v := h.view()
	for _, want := range []string{"Preview of matters-2024.csv", "5 pairs · 3 to send in 1 request", "ignored columns: note",
		"2 refused before sending (duplicate_pair 1, invalid_client_id 1)", "invalid_client_id", "duplicate_pair"} {
		if !strings.Contains(v, want) {
			t.Errorf("preview lacks %q:\n%s", want, v)
		}
	}
	h.press("X")
	h.typeText("2")
	h.press("enter")
	if v := h.view(); !strings.Contains(v, "does not match") {
		t.Fatalf("wrong count accepted:\n%s", v)
	}
	if len(h.out) != 0 {
		t.Fatalf("sent without confirmation: %v", h.out)
	}
	h.press("backspace")
	h.typeText("3")
	h.press("enter")
	done := h.runTasks()
	if len(done) != 1 || done[0].Err != nil || !strings.Contains(done[0].Outcome.Text, "deleted 2, error 3 · receipt 1") {
		t.Fatalf("task: %+v", done)
	}
	v = h.view()
	if !strings.Contains(v, "Receipt 1") || !strings.Contains(v, "blocked_by_ethical_wall") || !strings.Contains(v, "5 pairs: deleted 2, error 3") {
		t.Fatalf("receipt view:\n%s", v)
	}
	// who ran it beyond the token's owner (issue 45), as `matters receipt` says
	if me, err := user.Current(); err == nil && !strings.Contains(v, "· run by "+me.Username+" on this machine") {
		t.Errorf("the receipt view does not name the local user %s:\n%s", me.Username, v)
	}
	h.press("f") // outcomes present, sorted: deleted, error
	if v := h.view(); !strings.Contains(v, "showing deleted") || strings.Contains(v, "blocked_by_ethical_wall") {
		t.Fatalf("outcome filter:\n%s", v)
	}
	h.press("f", "t", "t") // error; codes: blocked…, duplicate_pair
	if v := h.view(); !strings.Contains(v, "code duplicate_pair") || strings.Contains(v, "blocked_by_ethical_wall") || !strings.Contains(v, "repeats the pair on line 2") {
		t.Fatalf("code filter:\n%s", v)
	}
	h.out = nil
	h.press("enter") // the selected row's whole detail, which the table cuts
	if len(h.out) != 1 || !strings.Contains(h.out[0].(page.StatusMsg).Text, "repeats the pair on line 2 after trimming; not sent (that line is processed)") {
		t.Fatalf("enter: %v", h.out)
	}
	h.out = nil
	h.press("U")
	h.typeText("2")
	h.press("enter")
	done = h.runTasks()
	if len(done) != 1 || done[0].Err != nil || !strings.Contains(done[0].Outcome.Text, "restored 2") {
		t.Fatalf("restore task: %+v", done)
	}
	for _, mi := range h.s.Matters() {
		for _, x := range ms {
			if mi.ServiceID == x.ServiceID && mi.Deleted {
				t.Errorf("not restored: %+v", mi)
			}
		}
	}
	if v := h.view(); !strings.Contains(v, "Receipt 2") || !strings.Contains(v, "restore of receipt 1") {
		t.Fatalf("restore receipt:\n%s", v)
	}
	// esc goes back to the list, which shows both receipts.
	h.press("esc")
	if v := h.view(); !strings.Contains(v, "restore 1") || !strings.Contains(v, "matters-2024.csv") {
		t.Fatalf("list:\n%s", v)
	}
	h.press("enter") // newest first: the restore
	if h.p.(*Model).receipt.ID != 2 {
		t.Fatalf("opened receipt %d", h.p.(*Model).receipt.ID)
	}
}

func TestMalformedFileNamesTheLine(t *testing.T) {
	h := newHarness(t, false)
	p := h.writeFile("bad.csv", "c,m\nC,M\n\"open\n")
	h.press("n")
	h.burst(p)
	h.press("enter")
	if v := h.view(); !strings.Contains(v, "bad.csv: line 3:") || !strings.Contains(v, "nothing was sent") {
		t.Fatalf("view:\n%s", v)
	}
	if h.p.(*Model).mode != modePath {
		t.Fatal("left the path prompt")
	}
}

// Cancel stops between requests; the receipt lists exactly the lines sent.
func TestCancelBetweenRequests(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(3)
	body := ""
	for _, m := range ms {
		body += m.ClientID + "," + m.MatterID + "\n"
	}
	p := h.writeFile("m.csv", body)
	h.press("n")
	h.burst(p)
	h.press("enter")
	m := h.p.(*Model)
	m.plan.BatchSize = 1 // three requests out of three pairs
	h.press("X")
	h.typeText("3")
	h.press("enter")
	// Cancel before the task runs: it stops before its first request.
	h.press("c")
	done := h.runTasks()
	if len(done) != 1 || done[0].Err == nil || !strings.Contains(done[0].Err.Error(), "lines sent: none") {
		t.Fatalf("task: %+v", done)
	}
	if v := h.view(); !strings.Contains(v, "not sent 3") || !strings.Contains(v, "canceled") {
		t.Fatalf("receipt:\n%s", v)
	}
}

// Between the task's end and its receipt arriving from the store, the view
// still draws (the real root renders after every message; the harness's
// Drive used to hide the gap).
func TestViewBetweenTaskDoneAndReceipt(t *testing.T) {
	h := newHarness(t, false)
	p := h.writeFile("m.csv", "C-X,M-X\n")
	h.press("n")
	h.burst(p)
	h.press("enter", "X")
	h.typeText("1")
	h.press("enter")
	var st page.StartTask
	for _, msg := range h.out {
		if s, ok := msg.(page.StartTask); ok {
			st = s
		}
	}
	if st.Run == nil {
		t.Fatal("no task started")
	}
	o, err := st.Run(context.Background(), func(string) {})
	var cmd tea.Cmd
	h.p, cmd = h.p.Update(page.TaskDone{ID: 1, Origin: h.p.(*Model).id, Name: st.Name, Outcome: o, Err: err})
	if v := h.view(); !strings.Contains(v, "opening the receipt") {
		t.Fatalf("view while the receipt loads:\n%s", v)
	}
	h.p, _ = pagetest.Drive(h.p, cmd)
	if v := h.view(); !strings.Contains(v, "Receipt 1") {
		t.Fatalf("receipt:\n%s", v)
	}
}

type instantClock struct{ now time.Time }

func (c *instantClock) Now() time.Time { return c.now }
func (c *instantClock) Sleep(ctx context.Context, d time.Duration) error {
	c.now = c.now.Add(d)
	return ctx.Err()
}

// A wait for the client-matters budget shows in the task's footer text
// (and the run view), so a long run does not look hung.
func TestRunSaysBudgetWaits(t *testing.T) {
	h := newHarnessWith(t, false, api.Config{Limits: api.Limits{Matters: 1}, Clock: &instantClock{now: pagetest.Now}})
	p := h.writeFile("m.csv", "C-1,M\nC-2,M\n")
	h.press("n")
	h.burst(p)
	h.press("enter")
	h.p.(*Model).plan.BatchSize = 1
	h.press("X")
	h.typeText("2")
	h.press("enter")
	var st page.StartTask
	for _, msg := range h.out {
		if s, ok := msg.(page.StartTask); ok {
			st = s
		}
	}
	var texts []string
	if _, err := st.Run(context.Background(), func(s string) { texts = append(texts, s) }); err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(texts, "\n")
	if !strings.Contains(joined, "waiting 1m1s for the matters budget") || !strings.Contains(joined, "request 2 of 2") {
		t.Fatalf("footer texts: %q", texts)
	}
}

// A backend that cannot change matters (a wrapper, a fake) gets no file
// picker: a file would be read for nothing, and over SSH it would be a file
// of the server's.
func TestNoFilePickerWithoutService(t *testing.T) {
	m := New(pagetest.WithJobs(pagetest.Env(t, &pagetest.Fake{}, false), page.Jobs{}), Deps{}, "/etc/passwd")
	m.SetSize(100, 20)
	p, out := pagetest.Drive(m, m.Init())
	p, more := pagetest.Press(p, "n")
	out = append(out, more...)
	if p.(*Model).mode != modeList {
		t.Fatalf("mode %d: a file picker opened", p.(*Model).mode)
	}
	found := false
	for _, msg := range out {
		if s, ok := msg.(page.StatusMsg); ok && s.Err != nil && strings.Contains(s.Err.Error(), "cannot change client matters") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no explanation: %v", out)
	}
}

// A huge receipt is not loaded whole: the view holds at most maxItems rows
// and says where the rest are; filters query the store.
func TestReceiptViewIsBounded(t *testing.T) {
	h := newHarness(t, false)
	p := h.writeFile("m.csv", "A,1\nB,2\n ,3\nD,4\n")
	h.press("n")
	h.burst(p)
	h.press("enter", "X")
	h.typeText("3")
	h.press("enter")
	h.runTasks()
	m := h.p.(*Model)
	m.maxItems = 2
	h.press("esc", "enter") // back to the list, reopen the receipt
	if v := h.view(); !strings.Contains(v, "the first 2 of 4") || !strings.Contains(v, "matters receipt 1 --export csv") {
		t.Fatalf("view:\n%s", v)
	}
	// e writes what the view holds, and says the file has no more
	if ex := m.ExportTable(); ex.Len() != 2 || !strings.Contains(ex.Note(), "first 2 of 4 outcomes: `vaultdeck matters receipt 1 --csv` writes them all") {
		t.Errorf("the export of a bounded receipt: %d rows, note %q", ex.Len(), ex.Note())
	}
	h.press("f", "f") // already_absent, then error
	if v := h.view(); !strings.Contains(v, "showing error") || strings.Contains(v, "the first") || !strings.Contains(v, "invalid_client_id") {
		t.Fatalf("filtered:\n%s", v)
	}
}

// Quitting while a run sends waits for the request on the wire (the root
// calls the task's Stop and quits when Run returns), so the receipt learns
// what that request did; without a Stop the root quits at once and the
// receipt stays "interrupted".
func TestQuitStopsTheRunBetweenRequests(t *testing.T) {
	h := newHarness(t, false)
	ms := h.live(2)
	p := h.writeFile("m.csv", ms[0].ClientID+","+ms[0].MatterID+"\n"+ms[1].ClientID+","+ms[1].MatterID+"\n")
	h.press("n")
	h.burst(p)
	h.press("enter")
	h.p.(*Model).plan.BatchSize = 1
	h.press("X")
	h.typeText("2")
	h.press("enter")
	var start *page.StartTask
	for _, msg := range h.out {
		if s, ok := msg.(page.StartTask); ok {
			start = &s
		}
	}
	if start == nil || start.Stop == nil {
		t.Fatalf("the deletion task has no Stop: quitting would not wait for its request (%+v)", start)
	}
	start.Stop() // what the root does on q
	start.Stop() // and again: a second quit must not panic
	done := h.runTasks()
	if len(done) != 1 || done[0].Err == nil || !strings.Contains(done[0].Err.Error(), "lines sent: none") {
		t.Fatalf("task after Stop: %+v", done)
	}
}
