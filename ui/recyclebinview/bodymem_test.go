package recyclebinview

import "testing"

// TestOneSessionHoldsNearTheBody guards issue 46's memory goal on a
// smaller bin: a session opened as serve opens it (its own client through
// the Share) holds, in live heap, at most 1.5x the answer's body as sent.
// Decoded entries kept as goccy leaves them point into a copy of their
// whole item, so a session held the body and its decoded struct besides
// (1.7x at 100,000 entries); compacted (api/compact_bin.go) it is under
// 1x. BenchmarkServeSessions measures the RSS at 100,000.
func TestOneSessionHoldsNearTheBody(t *testing.T) {
	b := newBinSessions(t, 20_000)
	body := b.bodySize()
	held := b.heap(1, sessionsCase{name: "apart"})
	t.Logf("one session holds %.1f MiB of live heap for a %.1f MiB body (%.2fx)",
		float64(held)/(1<<20), float64(body)/(1<<20), float64(held)/float64(body))
	if ratio := float64(held) / float64(body); ratio > 1.5 {
		t.Errorf("one session holds %.1f MiB of live heap, %.2fx the %.1f MiB body (goal ≤ 1.5x)",
			float64(held)/(1<<20), ratio, float64(body)/(1<<20))
	}
}
