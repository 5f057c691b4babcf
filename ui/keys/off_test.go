package keys

import (
	"strings"
	"testing"
)

// sessions is every kind of session the console can be: each of the three
// gates on or off.
func sessions() []Session {
	var out []Session
	for _, ro := range []bool{false, true} {
		for _, nolocal := range []bool{false, true} {
			for _, jobs := range []bool{false, true} {
				out = append(out, Session{ReadOnly: ro, NoLocalFiles: nolocal, Jobs: jobs})
			}
		}
	}
	return out
}

// Every binding a session turns off is still answered, in one line that
// says why (issue 29.3: e over serve, D and u in a read-only session did
// nothing, silently). Walks every binding of the map, by reflection, in
// every kind of session, so a binding gated later is covered too.
func TestEveryGatedKeySaysWhy(t *testing.T) {
	for _, s := range sessions() {
		m := NewSession(s)
		for name, b := range all(m) {
			for _, k := range b.Keys() {
				why, off := m.Off(k)
				switch {
				case b.Enabled() && off:
					t.Errorf("%+v: %s (%q) is enabled but Off answers %q", s, name, k, why)
				case !b.Enabled() && !off:
					t.Errorf("%+v: %s (%q) is off and says nothing", s, name, k)
				case off && (strings.Contains(why, "\n") || !strings.Contains(why, b.Help().Key) || !strings.Contains(why, ": ")):
					t.Errorf("%+v: %s (%q) answers %q: one line naming the key and the reason", s, name, k, why)
				}
			}
		}
	}
}

// The reason named is the one that matters to the user: a read-only
// session's D and u say read-only, serve's e says SSH, and u over a
// writable SSH session says SSH rather than the jobs it was not given.
func TestOffNamesTheReason(t *testing.T) {
	for _, c := range []struct {
		s    Session
		key  string
		want string
	}{
		{Session{ReadOnly: true, Jobs: true}, "D", WhyReadOnly},
		{Session{ReadOnly: true, Jobs: true}, "u", WhyReadOnly},
		{Session{ReadOnly: true, NoLocalFiles: true}, "u", WhyReadOnly},
		{Session{NoLocalFiles: true}, "e", WhyNoLocalFiles},
		{Session{NoLocalFiles: true}, "u", WhyNoLocalFiles},
		{Session{}, "X", WhyNoJobs},
	} {
		why, off := NewSession(c.s).Off(c.key)
		if !off || !strings.HasSuffix(why, c.want) {
			t.Errorf("%+v %s: got %q, %v; want ending %q", c.s, c.key, why, off, c.want)
		}
	}
	if _, off := NewSession(Session{Jobs: true}).Off("j"); off {
		t.Error("a key that is not gated is not off")
	}
}
