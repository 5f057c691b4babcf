package auditview

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// nested is {"a":{"a":...1...}} depth deep: the hostile entry of issue 26.6
// (9,000 deep is 54 KB on the wire).
func nested(depth int) string {
	return strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
}

func hostileEntry(data string) store.AuditEntry {
	raw := `{"id":"deep-1","timestamp":"2026-11-24T11:00:00Z","type":"user:x","user":"a@b.test","ip":"10.0.0.1","data":` + data + `}`
	return store.AuditEntry{ID: "deep-1", Time: time.Date(2026, 11, 24, 11, 0, 0, 0, time.UTC), Type: "user:x",
		User: "a@b.test", IP: "10.0.0.1", Raw: []byte(raw)}
}

// openedBytes is what opening an entry's detail with enter and drawing it
// once allocates, in bytes.
func openedBytes(t *testing.T, e store.AuditEntry) (uint64, string) {
	t.Helper()
	m := New(pagetest.Env(t, &pagetest.Fake{}, false), "").(*Model)
	m.SetSize(120, 40)
	m.show([]store.AuditEntry{e}, 0)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m.Update(pagetest.Key("enter"))
	view := m.View()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, view
}

// TestDeepEntryDetailIsBounded: an entry whose data nests 9,000 deep (and
// its neighbours: 100k keys, a 1 MiB string, deep arrays, all at once)
// opens in a few megabytes; it took 940 MB and 8 s before.
func TestDeepEntryDetailIsBounded(t *testing.T) {
	const budget = 4 << 20 // beyond the entry's own size, which decoding copies
	wide := make([]string, 100_000)
	for i := range wide {
		wide[i] = fmt.Sprintf(`"k%06d":%d`, i, i)
	}
	cases := map[string]string{
		"deep objects": nested(9000),
		"deep arrays":  strings.Repeat("[", 9000) + strings.Repeat("]", 9000),
		"too deep":     nested(20000), // past encoding/json's 10,000: shown as text
		"wide object":  "{" + strings.Join(wide, ",") + "}",
		"1 MiB string": `"` + strings.Repeat("x", 1<<20) + `"`,
		"mixed":        `{"d":` + nested(5000) + `,"w":{` + strings.Join(wide[:20000], ",") + `},"s":"` + strings.Repeat(`\u00e9`, 100_000) + `"}`,
		"long fields":  `1,"user_agent":"` + strings.Repeat("u", 1<<20) + `"`,
	}
	for name, data := range cases {
		e := hostileEntry(data)
		n, view := openedBytes(t, e)
		t.Logf("%s (%d KB): %d KB allocated", name, len(e.Raw)>>10, n>>10)
		if n > budget+2*uint64(len(e.Raw)) {
			t.Errorf("%s: opening the detail allocated %d MB, over the %d MB bound", name, n>>20, budget>>20)
		}
		if !strings.Contains(view, "deep-1") {
			t.Errorf("%s: the detail does not show the entry:\n%s", name, view)
		}
		if !strings.Contains(view, "drawn in part") {
			t.Errorf("%s: the pane does not say it is drawn in part:\n%s", name, view)
		}
	}
}

// TestDetailCopiesAndSavesTheWholeEntry: with the detail open the page
// offers the entry as received, whole, to y (copy) and e (save).
func TestDetailCopiesAndSavesTheWholeEntry(t *testing.T) {
	m := New(pagetest.Env(t, &pagetest.Fake{}, false), "").(*Model)
	m.SetSize(100, 30)
	e := hostileEntry(nested(9000))
	m.show([]store.AuditEntry{e}, 0)
	if _, ok := m.Document(); ok {
		t.Fatal("a document is offered with the detail closed: y would not copy the ID")
	}
	m.Update(pagetest.Key("enter"))
	doc, ok := m.Document()
	if !ok || string(doc.Body) != string(e.Raw)+"\n" || doc.Ext != "json" {
		t.Fatalf("document %v: %d bytes, want the entry's %d", ok, len(doc.Body), len(e.Raw))
	}
	if v := m.View(); !strings.Contains(v, "y copies the entry, e saves it whole") {
		t.Errorf("the pane does not offer the copy and the save:\n%s", v)
	}
	m.Update(pagetest.Key("esc"))
	if _, ok := m.Document(); ok {
		t.Error("a document is offered after the detail closed")
	}
}
