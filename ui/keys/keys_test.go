package keys

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

func press(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func TestReadOnlyDisablesDelete(t *testing.T) {
	if !key.Matches(press("D"), New(false).Delete) {
		t.Fatal("D should delete in a writable session")
	}
	ro := New(true)
	if key.Matches(press("D"), ro.Delete) || ro.Delete.Enabled() {
		t.Fatal("D must not match in a read-only session")
	}
	for _, b := range Enabled(ro.Delete, ro.Up) {
		if b.Help().Desc == "delete project" {
			t.Error("help advertises delete in read-only")
		}
	}
}

// Binds tells the root which alt keys are bindings; the others are Esc and
// a key that arrived in one read.
func TestBinds(t *testing.T) {
	m := New(false)
	if !m.Binds("q") || !m.Binds("D") || m.Binds("alt+q") || m.Binds("alt+[") {
		t.Error("Binds q, D, not alt+q nor alt+[")
	}
	if New(true).Binds("D") {
		t.Error("a disabled binding binds nothing")
	}
}

// A session without local files (serve) has no export; read-only keeps
// it (writing a local CSV changes nothing in the workspace).
func TestExportGatedByLocalFiles(t *testing.T) {
	if !New(true).Export.Enabled() || !NewSession(Session{Jobs: true}).Export.Enabled() {
		t.Error("export should be offered with local files, read-only or not")
	}
	m := NewSession(Session{NoLocalFiles: true, Jobs: true})
	if m.Export.Enabled() || m.Binds("e") {
		t.Error("export offered in a session without local files")
	}
	if !m.Delete.Enabled() || !m.Restore.Enabled() {
		t.Error("no local files must not take the keys that only talk to the service away")
	}
}

// Over SSH (serve, no local files) the project page's footer offered
// "u upload" and u answered 'there is no command "upload"': the keys that
// read a file of this machine (upload, re-upload, a matter file) are gone
// there, from the footer, the help and the key itself, in this one place.
func TestLocalFileKeysGoneWithoutLocalFiles(t *testing.T) {
	m := NewSession(Session{NoLocalFiles: true, Jobs: true})
	for name, b := range map[string]key.Binding{"upload": m.Upload, "re-upload": m.Reupload, "open a matter file": m.OpenFile} {
		if b.Enabled() {
			t.Errorf("%s offered in a session without local files", name)
		}
	}
	if l := NewSession(Session{Jobs: true}); !l.Upload.Enabled() || !l.Reupload.Enabled() || !l.OpenFile.Enabled() {
		t.Error("with local files, upload, re-upload and a matter file are offered")
	}
}

// TestEachSplitsABurst: a read of several runes is that many keys, each
// matching its binding; one key, a named key and a paste stay whole.
func TestEachSplitsABurst(t *testing.T) {
	m := New(false)
	burst := Each(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjk")})
	if len(burst) != 3 || !key.Matches(burst[0], m.Down) || !key.Matches(burst[1], m.Down) || !key.Matches(burst[2], m.Up) {
		t.Fatalf("jjk split into %v", burst)
	}
	for _, whole := range []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("j")}, {Type: tea.KeyEnter}, {Type: tea.KeyRunes, Runes: []rune("qqq"), Paste: true}} {
		if got := Each(whole); len(got) != 1 || got[0].String() != whole.String() {
			t.Errorf("%v split into %v", whole, got)
		}
	}
}
