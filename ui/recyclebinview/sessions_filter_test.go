package recyclebinview

import (
	"runtime"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// filteredHeap is the live heap n sessions hold once each has typed the
// filter q (one shared answer: the Share hands them all the first
// request's).
func (b *binSessions) filteredHeap(n int, q string) uint64 {
	b.tb.Helper()
	base := liveHeap()
	pages := b.open(api.NewShare(1<<40), nil, n)
	for i, p := range pages {
		p, _ = pagetest.Press(p, "/")
		p, _ = pagetest.Type(p, q)
		if got := p.(*Model).Table.Len(); got == 0 {
			b.tb.Fatalf("session %d: the filter %q shows no entry", i+1, q)
		}
		pages[i] = p
	}
	held := liveHeap()
	runtime.KeepAlive(pages)
	if held < base {
		return 0
	}
	return held - base
}

// TestSessionsFilteringShareTheirHaystacks: a session that types a filter
// in a shared bin pays for its own indexes over the answer, not for a
// lower-cased copy of every entry's text (the haystacks were about 125
// bytes an entry and session: 12 MB a session on the 100,000-entry bin).
// The haystacks of an answer are built once, with it, and shared; what a
// session adds is its order and its filter's result.
func TestSessionsFilteringShareTheirHaystacks(t *testing.T) {
	b := newBinSessions(t, sessionsSize(t, 5_000))
	const q = "@" // in every deleter's address: every entry passes, the most a filter keeps
	one, ten := b.filteredHeap(1, q), b.filteredHeap(10, q)
	per := (float64(ten) - float64(one)) / 9 / float64(b.size)
	t.Logf("one session filtering holds %.1f MiB, ten %.1f MiB: %.0f bytes an entry for each further session",
		float64(one)/(1<<20), float64(ten)/(1<<20), per)
	if per > 48 {
		t.Errorf("each further session filtering the shared bin holds %.0f bytes an entry (goal ≤ 48: its own indexes, the haystacks shared)", per)
	}
}
