package serve

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// keysBody is the fixture's keys file as startServer writes it, less the
// lines left out.
func (f *fixture) keysWithout(t testing.TB, drop ...string) string {
	t.Helper()
	b, err := os.ReadFile(f.srv.cfg.AuthorizedKeys)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		out := false
		for _, d := range drop {
			out = out || strings.Contains(l, d)
		}
		if !out {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// Removing a key's line takes effect without a restart: its next login is
// refused, and its open session is closed with a message within 10 s,
// while the other key's session goes on.
func TestRemovedKeyRefusedAndClosed(t *testing.T) {
	f := startServer(t)
	a := f.open(f.bound, nil)
	a.waitFor("1/12")
	b := f.open(f.unbound, nil)
	b.waitFor("API token:")
	f.writeKeys(t, f.keysWithout(t, "alice@laptop"))
	removed := time.Now()
	if c, err := f.dial(gossh.PublicKeys(f.bound)); err == nil {
		c.Close()
		t.Fatal("the removed key logged in again")
	}
	if code := a.exit(); code != 1 {
		t.Fatalf("the removed key's session exited %d", code)
	}
	if took := time.Since(removed); took > 10*time.Second {
		t.Fatalf("the removed key's session was closed after %s, want within 10 s", took)
	}
	if !strings.Contains(a.text(), "no longer in the server's authorized keys") {
		t.Fatalf("the closed session was not told why: %q", a.text())
	}
	b.send("x")
	b.waitFor("(hidden)")
	if n := f.srv.Sessions(); n != 1 {
		t.Fatalf("%d sessions open, want the other key's 1", n)
	}
	// and a key added is let in at its next login, without a restart
	k := newKeyFile(t)
	f.writeKeys(t, f.keysWithout(t)+fmt.Sprintf("\n%s=\"sim\" %s carol@new\n", ProfileOption, k.line))
	c := f.open(k.signer, nil)
	c.waitFor("1/12")
}
