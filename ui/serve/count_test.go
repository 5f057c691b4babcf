package serve

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSessionLogCountsEveryRequest: a session's log line says how many
// requests it made, and that is what the service saw of it, audit reads
// included (the audit view reads items, which a counter wrapped around the
// backend did not see).
func TestSessionLogCountsEveryRequest(t *testing.T) {
	f := startServer(t)
	tm := f.open(f.bound, nil)
	tm.waitFor("Acme Corp v. Halvorsen")
	tm.send(":audit\r")
	// The view's title says when its reads are done (the last one drawn).
	waitUntil(t, "the audit log loaded", func() bool {
		title := ""
		for _, l := range strings.Split(tm.text(), "\n") {
			if strings.Contains(l, "Audit log ·") {
				title = l
			}
		}
		return strings.Contains(title, "newest first") && !strings.Contains(title, "loading")
	}, tm.text)
	tm.send("q")
	if code := tm.exit(); code != 0 {
		t.Fatalf("exit status %d after q", code)
	}
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(f.log.String(), "msg=\"ssh session\"") }, f.log.String)
	m := regexp.MustCompile(`requests=(\d+)`).FindStringSubmatch(f.log.String())
	if m == nil {
		t.Fatalf("no requests= in %s", f.log.String())
	}
	n, _ := strconv.Atoi(m[1])
	// Less one whoami: the client's own lookup of the workspace for the
	// machine's budget ledger, once per client and detached from the
	// caller's context by design (api/ledger.go), so no session's.
	if want := f.hits.total() - 1; n != want || auditHits(f) == 0 || f.hits.count("/api/whoami") != 2 {
		t.Errorf("the log line says requests=%d; the simulator saw %d besides the ledger's whoami (%d audit reads, %d whoami)",
			n, want, auditHits(f), f.hits.count("/api/whoami"))
	}
}

// auditHits are the simulator's audit requests.
func auditHits(f *fixture) int {
	f.hits.mu.Lock()
	defer f.hits.mu.Unlock()
	n := 0
	for p, v := range f.hits.n {
		if strings.Contains(p, "/audit") {
			n += v
		}
	}
	return n
}
