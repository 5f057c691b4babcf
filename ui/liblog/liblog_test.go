package liblog

import (
	"bytes"
	"log"
	"strings"
	"sync"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

const tok = "vd/Secret+Part=42/xyz"

// lines collects what a route is handed.
type lines struct {
	mu sync.Mutex
	l  []string
}

func (c *lines) add(s string) { c.mu.Lock(); c.l = append(c.l, s); c.mu.Unlock() }

func (c *lines) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.l...)
}

// TestRoutesNestAndEndInAnyOrder: a face's route replaces the one in
// place and gives it back when it ends; one that ends out of turn only
// takes itself out; with none, lines go to the fallback, marked ours.
func TestRoutesNestAndEndInAnyOrder(t *testing.T) {
	var stderr bytes.Buffer
	r := New(&stderr)
	lg := log.New(r, "", 0) // as the log package writes, once SetOutput points it here
	var cmd, console lines
	endCmd := r.Route(cmd.add, nil)
	lg.Print("one")
	endConsole := r.Route(console.add, nil)
	lg.Print("two")
	endCmd() // out of turn: the console keeps its lines
	lg.Print("three")
	endConsole()
	lg.Print("four")
	if got := strings.Join(cmd.got(), "|"); got != "one" {
		t.Errorf("the command's route had %q", got)
	}
	if got := strings.Join(console.got(), "|"); got != "two|three" {
		t.Errorf("the console's route had %q", got)
	}
	if got := stderr.String(); got != "vaultdeck: four\n" {
		t.Errorf("the fallback had %q", got)
	}
	var nilRouter *Router
	nilRouter.Route(cmd.add, nil)() // a test's Env has none
}

// TestLineIsWholeRedactedInertAndBounded: what a library writes in pieces
// is one line; the token goes first, so that dropping the control
// characters a server split it with cannot join it again; the line is cut
// at MaxLine; an unending line is cut at maxPending.
func TestLineIsWholeRedactedInertAndBounded(t *testing.T) {
	red := redact.New(tok)
	var got lines
	r := New(nil)
	r.Route(got.add, red.String)
	r.Write([]byte("Unsolicited response starting with \"HTTP/1.1 200 OK\\r\\nX-Echo: " + tok[:5]))
	r.Write([]byte(tok[5:] + "\"\n"))
	r.Write([]byte("split " + tok[:4] + "\x1b[2J" + tok[4:] + " and Bearer abc.def\n"))
	r.Write([]byte(strings.Repeat("x", 2*MaxLine) + "\n"))
	r.Write(bytes.Repeat([]byte("y"), maxPending))
	l := got.got()
	if len(l) != 4 {
		t.Fatalf("%d lines: %q", len(l), l)
	}
	for i, s := range l {
		if strings.Contains(s, "Secret") || strings.Contains(s, "abc.def") || strings.ContainsAny(s, "\x1b\n\r") {
			t.Errorf("line %d: %q", i, s)
		}
		if len(s) > MaxLine+len("…") {
			t.Errorf("line %d is %d bytes", i, len(s))
		}
	}
	if !strings.Contains(l[0], `X-Echo: [REDACTED]"`) {
		t.Errorf("a token split across writes: %q", l[0])
	}
	if !strings.Contains(l[1], "split [REDACTED]") {
		t.Errorf("a token split by an escape sequence: %q", l[1])
	}
}

// TestRedactorsKeepTheMostRecent: serve's clients' redactors, the oldest
// dropped past Max; what looks like a bearer token always goes.
func TestRedactorsKeepTheMostRecent(t *testing.T) {
	rs := Redactors{Max: 2}
	for _, s := range []string{"first-token-1", "second-token-2", "third-token-3"} {
		rs.Add(redact.New(s).String)
	}
	got := rs.Redact("first-token-1 second-token-2 third-token-3 Bearer zzz")
	if got != "first-token-1 [REDACTED] [REDACTED] Bearer [REDACTED]" {
		t.Errorf("%q", got)
	}
}
