package matters

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// BenchmarkJudge10kInFlightOver100kMatters: a full request of in-flight
// pairs judged against a workspace of 100,000 listed matters (each name
// tried as client + delimiter + matter at every split).
func BenchmarkJudge10kInFlightOver100kMatters(b *testing.B) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	recs := make([]api.ClientMatter, 100_000)
	for i := range recs {
		c, m := fmt.Sprintf("%05d", i%5000), fmt.Sprintf("2024-%06d", i)
		recs[i] = api.ClientMatter{ClientID: c, MatterID: m, Name: c + "." + m}
		if i%3 == 0 {
			recs[i].DeletedAt = deletedAt(now.Add(-time.Duration(i) * time.Second))
		}
	}
	pairs := make([]InFlight, 10_000)
	for i := range pairs {
		j := i * 10
		pairs[i] = InFlight{Pair: Pair{Line: i + 2, ClientID: recs[j].ClientID, MatterID: recs[j].MatterID}, SentAt: now.Add(-time.Hour)}
	}
	l := listing{date: now, records: recs}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Judge(context.Background(), l, pairs); err != nil {
			b.Fatal(err)
		}
	}
}
