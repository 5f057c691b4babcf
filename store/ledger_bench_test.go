package store

import (
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkBudgetLedgerReserve is the cost the ledger adds to every limited
// request: one immediate transaction (prune, read the bucket, insert a row,
// commit with an fsync) on a file on disk, with a full vault window (10
// sends) and 150 client-matter sends in another bucket.
func BenchmarkBudgetLedgerReserve(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := time.UnixMilli(1_700_000_000_000)
	for i := range 150 {
		if _, err := take(s, "other|matters", 150, now.Add(time.Duration(i)*time.Millisecond)); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		// 10 a minute: each send is 6 s after the last, so the window
		// always holds ten rows and pruning removes one.
		if _, err := take(s, "http://x|workspace:w|vault", 11, now.Add(time.Duration(i)*6*time.Second)); err != nil {
			b.Fatal(err)
		}
	}
}
