package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// TestBytesWithoutItemsEndLikeAStall (issue 26.10): a streamed listing
// whose body goes on but brings no new item (whitespace between items or
// inside one, padding members beside the items, a key or brackets that
// never close) ends with the silence timeout, not the whole-answer bound:
// bytes that bring nothing are silence. Fast ones that grow one value end
// at a size limit sooner; commas are no JSON at all.
func TestBytesWithoutItemsEndLikeAStall(t *testing.T) {
	// The cases that end at a size limit get a silence far longer than
	// their read takes, so a loaded machine (CI runs ui/e2e beside this)
	// cannot turn "4 MiB of fast whitespace" into a stall; the cases about
	// silence keep 300ms.
	silence := api.Timeouts{FirstByte: 5 * time.Second, BodyStall: 300 * time.Millisecond, Total: 60 * time.Second}
	sizeBound := api.Timeouts{FirstByte: 5 * time.Second, BodyStall: 20 * time.Second, Total: 60 * time.Second}
	for _, tc := range []struct {
		fault   faultserver.Fault
		trickle time.Duration
		want    string
	}{
		{faultserver.EndlessSpace, 0, "but no new item for 300ms"},
		{faultserver.SpaceAfterItems, 0, "but no new item for 300ms"},
		{faultserver.EndlessPadding, 0, "but no new item for 300ms"},
		{faultserver.EndlessPadding, 20 * time.Millisecond, "but no new item for 300ms"},
		{faultserver.SpaceInItem, 20 * time.Millisecond, "but no new item for 300ms"},
		{faultserver.EndlessKey, 20 * time.Millisecond, "but no new item for 300ms"},
		{faultserver.SpaceInItem, 0, "4 MiB limit for a listing item"},
		{faultserver.EndlessKey, 0, "1 MiB limit for a string"},
		{faultserver.EndlessBrackets, 0, "4 MiB limit for a listing item"},
		{faultserver.EndlessCommas, 0, "invalid JSON"},
	} {
		t.Run(string(tc.fault)+"/"+tc.trickle.String(), func(t *testing.T) {
			to := silence
			if !strings.Contains(tc.want, "no new item") {
				to = sizeBound
			}
			s := faultserver.Start(tc.fault, faultserver.Trickle(tc.trickle))
			defer s.Close()
			n := 0
			done := make(chan error, 1)
			go func() {
				_, err := hostileClient(t, s, to).RecycleBin(api.RecycleBinQuery{}).Each(context.Background(), func(*api.RecycleBinEntry, api.RawItem) error { n++; return nil }, nil)
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(50 * time.Second): // a guard against a hang, not a timing assertion
				t.Fatal("the read never ends")
			}
			var ae *api.Error
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "GET /api/v1/vault/workspace/recycle_bin") {
				t.Fatalf("want %q, got %v", tc.want, err)
			}
			if ae.Kind == api.KindTimeout && (!ae.NoItem || ae.Total) {
				t.Errorf("a timeout that is not the no-item one: %+v", ae)
			}
			if tc.fault == faultserver.SpaceAfterItems && n != 10 {
				t.Errorf("%d items before the padding, want 10", n)
			}
		})
	}
}
