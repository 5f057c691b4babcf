package serve

import (
	"log/slog"
	"regexp"
	"strings"
	"testing"
)

// --debug: a line per request of each session, tagged with the session and
// its key, so two admins' requests read apart; no token in any line. The
// path has the query's names, as every command's debug line (so slog
// quotes it).
func TestDebugLogPerSession(t *testing.T) {
	dbg := &syncBuf{}
	f := startServer(t, func(c *Config) {
		c.DebugLog = slog.New(slog.NewTextHandler(dbg, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	a := f.open(f.bound, nil)
	a.waitFor("1/12")
	b := f.open(f.bound, nil)
	b.waitFor("1/12")
	b.send(":bin\r")
	b.waitFor("Recycle bin ·")
	fp := f.srv.Keys().List[0].Fingerprint
	lines := strings.Split(strings.TrimSpace(dbg.String()), "\n")
	sessions := map[string]bool{}
	re := regexp.MustCompile(`\bsession=(\d+)\b`)
	for _, l := range lines {
		if !strings.Contains(l, "msg=request") {
			continue
		}
		m := re.FindStringSubmatch(l)
		if m == nil || !strings.Contains(l, "key="+fp) || !strings.Contains(l, "status=") || !regexp.MustCompile(`path="?/api/`).MatchString(l) {
			t.Errorf("a request line without its session, key, path or status: %s", l)
			continue
		}
		sessions[m[1]] = true
	}
	if len(sessions) != 2 {
		t.Fatalf("requests of %d sessions, want 2:\n%s", len(sessions), dbg.String())
	}
	if !regexp.MustCompile(`path="?` + regexp.QuoteMeta(binPath)).MatchString(dbg.String()) {
		t.Errorf("the recycle bin's request is not in the debug log:\n%s", dbg.String())
	}
	if strings.Contains(dbg.String(), f.sim.Token("admin")) {
		t.Fatal("the token reached the debug log")
	}
}
