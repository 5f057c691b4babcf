package matters

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// BenchmarkJudge10kInFlightOver100kMatters: a full request of in-flight
// pairs judged against a workspace of 100,000 listed matters (each name
// tried as client + delimiter + matter at every split), read as a restore
// reads them: the client's listing of the service's body (loopback, each
// record decoded as it arrives, none held). An in-memory listing
// (api.Collected) would measure its own JSON encoding of each record,
// which no restore pays.
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
	body, err := json.Marshal(recs)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Date", now.Format(http.TimeFormat))
		w.Write(body)
	}))
	defer srv.Close()
	l, err := api.New(api.Config{BaseURL: srv.URL, Token: api.StaticToken("bench-token-0123"), Limits: api.Limits{Matters: -1}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Judge(context.Background(), l, pairs); err != nil {
			b.Fatal(err)
		}
	}
}
