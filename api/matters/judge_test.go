package matters

import (
	"context"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// listing is a fake client-matters listing with a fixed service clock.
type listing struct {
	date    time.Time
	records []api.ClientMatter
}

func (l listing) ClientMatters() api.Listing[api.ClientMatter] {
	return api.Collected(func(context.Context) ([]api.ClientMatter, api.Summary, error) {
		return l.records, api.Summary{Clock: api.ServiceClock{Date: l.date, Sent: l.date, Received: l.date}}, nil
	})
}

func deletedAt(t time.Time) api.Time { return api.Time{Time: t, Raw: t.Format(time.RFC3339Nano)} }

// TestJudgeInFlight covers Judge's rules one pair at a time: only a record
// with the pair's own identifiers, deleted after the request went out,
// sends the pair back.
func TestJudgeInFlight(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	sent := now.Add(-time.Minute)
	cases := []struct {
		name    string
		records []api.ClientMatter
		noDate  bool
		want    Result
		code    string
	}{
		{"deleted after the request went out", []api.ClientMatter{{ClientID: "C", MatterID: "M", Name: "C.M", DeletedAt: deletedAt(sent.Add(time.Second))}}, false, "", ""},
		{"never existed", []api.ClientMatter{{ClientID: "C", MatterID: "X", Name: "C.X"}}, false, ResultLeftAlone, CodeNeverExisted},
		{"present", []api.ClientMatter{{ClientID: "C", MatterID: "M", Name: "C.M"}}, false, ResultLeftAlone, CodePresent},
		{"deleted before this run", []api.ClientMatter{{ClientID: "C", MatterID: "M", Name: "C.M", DeletedAt: deletedAt(sent.Add(-time.Hour))}}, false, ResultLeftAlone, CodeDeletedBefore},
		{"by stored name only, deleted after", []api.ClientMatter{{Name: "C-M", DeletedAt: deletedAt(sent.Add(time.Second))}}, false, ResultUnproven, CodeUnproven},
		{"by stored name only, live", []api.ClientMatter{{Name: "C/M"}}, false, ResultLeftAlone, CodePresent},
		{"a name that only starts like the pair", []api.ClientMatter{{Name: "CM", DeletedAt: deletedAt(sent.Add(time.Second))}}, false, ResultLeftAlone, CodeNeverExisted},
		{"unreadable deleted_at", []api.ClientMatter{{ClientID: "C", MatterID: "M", Name: "C.M", DeletedAt: api.Time{Raw: "yesterday"}}}, false, ResultUnproven, CodeUnproven},
		{"no Date header", []api.ClientMatter{{ClientID: "C", MatterID: "M", Name: "C.M", DeletedAt: deletedAt(sent.Add(time.Second))}}, true, ResultUnproven, CodeUnproven},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := listing{date: now, records: tc.records}
			if tc.noDate {
				l.date = time.Time{}
			}
			got, err := Judge(context.Background(), l, []InFlight{{Pair: Pair{Line: 2, ClientID: " C", MatterID: "M "}, SentAt: sent}})
			if err != nil {
				t.Fatal(err)
			}
			if got[0].Result != tc.want || got[0].Code != tc.code || got[0].Line != 2 {
				t.Errorf("got %+v, want result %q code %q", got[0], tc.want, tc.code)
			}
		})
	}
}
