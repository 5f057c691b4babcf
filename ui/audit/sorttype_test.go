package audit

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestSortLoadsNothingAndSaysSo: O sorts the loaded entries only; it must
// not fetch more pages behind the user's back, and the status line says
// that only what is loaded was sorted.
func TestSortLoadsNothingAndSaysSo(t *testing.T) {
	for _, k := range []string{"O", "o"} {
		log := newFakeLog(1000, oneType)
		r := newRig(t, log, "")
		r.run(r.m.Init())
		_, before := log.calls()
		r.key(runes(k))
		if _, after := log.calls(); after != before {
			t.Errorf("%s loaded %d more pages", k, after-before)
		}
		if len(r.stat) == 0 || !strings.Contains(r.stat[len(r.stat)-1].Text, "201 loaded entries") {
			t.Errorf("%s: status %v does not say what was sorted", k, r.stat)
		}
	}
}

// TestTypePromptStartsEmpty: T opens an empty prompt with the current type
// as a placeholder, so typing replaces the filter instead of appending.
func TestTypePromptStartsEmpty(t *testing.T) {
	log := newFakeLog(10, oneType)
	r := newRig(t, log, "auth:login")
	r.run(r.m.Init())
	r.key(runes("T"))
	if v := r.m.typeInput.Value(); v != "" {
		t.Errorf("T prompt starts with %q", v)
	}
	if !strings.Contains(r.m.View(), "auth:login") {
		t.Errorf("the current type is not shown as a hint:\n%s", r.m.View())
	}
	for _, c := range "user:create" {
		r.key(runes(string(c)))
	}
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	if r.m.pager.logType != "user:create" {
		t.Errorf("filter became %q", r.m.pager.logType)
	}
}
