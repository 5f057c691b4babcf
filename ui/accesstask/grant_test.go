package accesstask

import (
	"strings"
	"testing"
)

// ParseGrant reads what the Users tab's + prompt takes, and refuses the
// rest by name (nothing is planned from a line it refuses).
func TestParseGrant(t *testing.T) {
	for _, c := range []struct {
		line, email, level, err string
	}{
		{"a@x.com", "a@x.com", "READ", ""},
		{"  A@X.com   manage ", "a@x.com", "MANAGE", ""},
		{"a@x.com Read", "a@x.com", "READ", ""},
		{"", "", "", "no address typed"},
		{"a@x.com owner", "", "", `"owner" is not a level`},
		{"a@x.com READ now", "", "", "nothing more"},
		{"ax.com READ", "", "", `"ax.com" is not an e-mail address`},
		{"@x.com", "", "", "not an e-mail address"},
		{"a@", "", "", "not an e-mail address"},
		{"a@x.com \x1b[31mREAD", "", "", "is not a level"},
	} {
		w, err := ParseGrant("p1", c.line)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: %v, want an error saying %q", c.line, err, c.err)
		case c.err != "" && strings.Contains(err.Error(), "\x1b"):
			t.Errorf("%q: the error carries an escape: %q", c.line, err)
		case c.err == "" && (err != nil || w.Email != c.email || w.Level != c.level || w.ProjectID != "p1"):
			t.Errorf("%q: %+v, %v; want %s %s on p1", c.line, w, err, c.email, c.level)
		}
	}
}
