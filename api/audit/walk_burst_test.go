package audit_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// burstLog is 12,000 entries stamped with one instant (no search splits a
// second), between a few entries a minute apart.
func burstLog() *shapeLog {
	var ts []time.Time
	ts = append(ts, uniformTimes(shapeEnd.Add(-time.Hour), 50, time.Minute)...)
	for range 12_000 {
		ts = append(ts, shapeEnd.Add(-time.Hour))
	}
	ts = append(ts, uniformTimes(shapeEnd, 50, time.Minute)...)
	return newShapeLog(ts, 0)
}

// TestNewestFirstThroughABurstLargerThanItHolds: a stretch denser than a
// walk holds (8,000 entries) lets its oldest pages go and lists them again,
// each exactly once more: every entry once, newest first, sent at most
// twice; a listing that then answers otherwise is an error naming it, not
// a gap or a repeat.
func TestNewestFirstThroughABurstLargerThanItHolds(t *testing.T) {
	l := burstLog()
	clock := newVirtualClock()
	clock.now = shapeEnd.Add(time.Minute)
	j := &audit.Job{Svc: l, Clock: clock}
	forward, _ := collect(t, j, store.AuditFilter{})
	slices.Reverse(forward)
	_, s0 := l.costs()
	got, _ := collect(t, j, store.AuditFilter{Newest: true})
	_, s1 := l.costs()
	if !slices.Equal(got, forward) {
		t.Fatalf("newest first gave %d entries, the forward answer reversed %d", len(got), len(forward))
	}
	if sent := s1 - s0; sent > 2*len(got)+1000 {
		t.Errorf("%d entries sent for %d: want at most twice", sent, len(got))
	}
	t.Logf("%d entries, %d sent", len(got), s1-s0)

	// the same burst, but the listing leaves an entry out when asked again
	changing := &changingLog{shapeLog: burstLog()}
	var n int
	_, err := (&audit.Job{Svc: changing, Clock: clock}).Query(context.Background(), store.AuditFilter{Newest: true}, func(store.AuditEntry) error {
		n++
		return nil
	})
	if !errors.Is(err, api.ErrAuditOrder) || !strings.Contains(err.Error(), "did not give the") {
		t.Fatalf("a listing that changed between two reads: %d entries, error %v", n, err)
	}
}

// changingLog lists a page differently the second time it is asked from
// the same cursor: one entry fewer.
type changingLog struct {
	*shapeLog
	asked map[string]bool
}

func (c *changingLog) AuditPage(ctx context.Context, from string, take int, typ string) (api.AuditPage, error) {
	if c.asked == nil {
		c.asked = map[string]bool{}
	}
	p, err := c.shapeLog.AuditPage(ctx, from, take, typ)
	if c.asked[from] && len(p.Entries) > 1 {
		p.Entries = append(p.Entries[:1:1], p.Entries[2:]...)
		p.Listed--
	}
	c.asked[from] = true
	return p, err
}
