package serve

import (
	"fmt"
	"strings"
	"testing"
)

// Under --allow-writes, the keys that change the workspace are a key's
// only when its line says vaultdeck-writes: a key without it has no D in
// help, and its D says why; a key with it opens the delete dialog. Without
// --allow-writes (the ceiling) the option grants nothing.
func TestWritesPerKey(t *testing.T) {
	for _, allow := range []bool{true, false} {
		f := startServer(t, func(c *Config) { c.AllowWrites = allow })
		r := newKeyFile(t) // bound, without the write option
		f.writeKeys(t, f.keysWithout(t)+fmt.Sprintf("\n%s=\"sim\" %s reader@desk\n", ProfileOption, r.line))
		for _, tc := range []struct {
			name   string
			writes bool
			tm     *term
		}{{"without the option", false, f.open(r.signer, nil)}, {"with it", allow, f.open(f.bound, nil)}} {
			tm := tc.tm
			tm.waitFor("Acme Corp v. Halvorsen")
			tm.send("\r")
			tm.waitFor("Users")
			tm.send("?")
			tm.waitFor("close help")
			if got := strings.Contains(tm.text(), "delete project"); got != tc.writes {
				t.Errorf("allow-writes=%v, key %s: help lists delete project: %v", allow, tc.name, got)
			}
			tm.send("?")
			tm.send("D")
			if tc.writes {
				tm.waitFor("Delete project")
				continue
			}
			want := "this key may not change the workspace"
			if !allow {
				want = "this server is read-only"
			}
			tm.waitFor(want)
			if !strings.Contains(tm.text(), "READ-ONLY") {
				t.Errorf("allow-writes=%v, key %s: no read-only badge", allow, tc.name)
			}
		}
	}
}
