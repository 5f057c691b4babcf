package filestatusview

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

const goodID = "123e4567-e89b-12d3-a456-426614174000"

// IDs typed into the prompt in tests: the prompt takes only UUIDs.
const (
	uid1 = "00000000-0000-4000-8000-000000000001"
	uid2 = "00000000-0000-4000-8000-000000000002"
	uid3 = "00000000-0000-4000-8000-000000000003"
	uid4 = "00000000-0000-4000-8000-000000000004"
)

// Text typed into the "file IDs" prompt is checked as UUIDs before any
// request, as the headless `status nope` is: one line naming the bad
// values, the text kept in the prompt to be corrected, no request spent.
func TestPastedNonUUIDsAreRefused(t *testing.T) {
	fake := newFake()
	fake.set("ready_to_query", goodID)
	r := newRig(t, fake, goodID, Options{})
	r.run(r.m.Init())
	before := fake.nCalls()
	r.key(runes("a"))
	r.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("hello, " + goodID + " world"), Paste: true})
	r.stat = nil
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if n := fake.nCalls(); n != before {
		t.Errorf("%d requests spent on a refused paste", n-before)
	}
	if len(r.stat) != 1 || r.stat[0].Err == nil {
		t.Fatalf("status = %+v, want one error", r.stat)
	}
	msg := r.stat[0].Err.Error()
	if !strings.Contains(msg, `"hello"`) || !strings.Contains(msg, `"world"`) || strings.Contains(msg, "\n") {
		t.Errorf("error %q should name both bad values on one line", msg)
	}
	if !r.m.CapturesInput() || !strings.Contains(r.m.paste.Value(), "hello") {
		t.Errorf("the prompt closed or lost the text: pasting=%v value=%q", r.m.pasting, r.m.paste.Value())
	}
	if len(r.m.tr.Files) != 1 {
		t.Errorf("%d files tracked after a refused paste", len(r.m.tr.Files))
	}
	// corrected, it is accepted
	r.m.paste.SetValue(goodID)
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if r.m.pasting {
		t.Error("a good paste left the prompt open")
	}
}

// CheckArg refuses :files with a value that is not a file ID, and accepts
// what the Files tab hands over (ID@EPOCH) and an empty argument (the
// prompt opens).
func TestCheckArg(t *testing.T) {
	for arg, ok := range map[string]bool{
		"":                               true,
		goodID:                           true,
		goodID + "@1700000000," + goodID: true,
		"hello,world":                    false,
		goodID + ",nope":                 false,
		goodID + "@x":                    false,
	} {
		err := CheckArg(arg)
		if (err == nil) != ok {
			t.Errorf("CheckArg(%q) = %v", arg, err)
		}
	}
	if err := CheckArg("hello,world"); err == nil || !strings.Contains(err.Error(), `"hello"`) || !strings.Contains(err.Error(), `"world"`) {
		t.Errorf("error %v should name both values", err)
	}
}
