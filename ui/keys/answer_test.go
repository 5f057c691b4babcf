package keys

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// Every answer is one line that fits 60 columns (the status line of the
// narrowest terminal the console is kept for), whatever the session, the
// key and the page: a line that wraps takes a row of the table away, and
// at 60x16 the D answer once did.
func TestEveryAnswerFitsOneLine(t *testing.T) {
	for _, s := range sessions() {
		m := NewSession(s)
		for name, b := range all(m) {
			for _, k := range b.Keys() {
				for _, here := range []Here{{}, {Route: "matters"}, {Offers: []key.Binding{b}, Hinted: true}} {
					line, _ := m.Answer(k, here)
					if w := ansi.StringWidth(line); w > AnswerWidth || strings.Contains(line, "\n") {
						t.Errorf("%+v: %s (%q) answers %q (%d columns)", s, name, k, line, w)
					}
				}
			}
		}
	}
}

// How each kind of key is answered, on a page that offers only enter and
// says it acts on nothing now (an empty list).
func TestAnswerSaysWhyOrNothing(t *testing.T) {
	m := NewSession(Session{ReadOnly: true, Jobs: true})
	empty := Here{Offers: append(m.Global(), m.Enter, m.Down), Hinted: true}
	for _, c := range []struct {
		key, want string
		toPage    bool
	}{
		{"D", "D (delete project) is off: this session is read-only", false},
		{"p", "p (only purging within 7 days / all): not here; open :bin", true},
		{"b", "b: not here; open :bin or :activity", true},                  // two meanings: the key alone
		{"f", "f: not here; open a project or :matters", true},              // the description would pass 60 columns
		{"P", "P: not here; open a project, :bin, :audit or :access", true}, // the description would pass 60 columns
		{"enter", NothingToOpen, true},
		{"j", "", true}, // moving at an edge: the screen says it
		{"z", "", true}, // no binding has it: a slip of the finger stays quiet
		{"Q", "", true},
	} {
		line, toPage := m.Answer(c.key, empty)
		if line != c.want || toPage != c.toPage {
			t.Errorf("%s: %q, to the page %v; want %q, %v", c.key, line, toPage, c.want, c.toPage)
		}
	}
	// on a page of its home whose mode does not offer it, a key is not
	// sent to the page it is on
	if line, _ := NewSession(Session{Jobs: true}).Answer("X", Here{Route: "matters", Hinted: true}); line != "X (delete the previewed matters): nothing to act on here now" {
		t.Errorf("X on the matters list: %q", line)
	}
	// what acts now needs no word; shift+tab and O go with tab and o
	acts := Here{Offers: []key.Binding{m.NextTab, m.SortNext}, Acts: []key.Binding{m.NextTab, m.SortNext}, Hinted: true}
	for _, k := range []string{"tab", "shift+tab", "o", "O"} {
		if line, _ := m.Answer(k, acts); line != "" {
			t.Errorf("%s acts, yet is answered %q", k, line)
		}
	}
}

// Issue 29.3: a key a page does not offer says where it works, whatever
// the number of views that have it: P once answered "P (this person,
// whole): not on this page" and left the user to guess among four. On a
// page offering only the root's keys, every other key is answered with
// its places (the views, or the kind of page: a list, tabs) in one line.
func TestNotHereSaysWhereItWorks(t *testing.T) {
	for _, s := range sessions() {
		m := NewSession(s)
		here := Here{Offers: m.Global(), Hinted: true}
		for name, b := range all(m) {
			for _, k := range b.Keys() {
				line, _ := m.Answer(k, here)
				if strings.Contains(line, "not on this page") {
					t.Errorf("%+v: %s (%q) answers %q: where does it work?", s, name, k, line)
				}
			}
		}
	}
}
