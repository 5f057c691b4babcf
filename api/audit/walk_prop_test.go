package audit_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestNewestFirstIsForwardReversedOnAnyShape: over logs of random shapes
// (steady, bursts sharing one instant, sparse with gaps of months, times
// jittered), random filters, bounds and limits, and windows of random
// sizes, newest first is exactly the forward answer reversed: no entry
// lost or repeated at a stretch's edge, a let-go page or a window's.
func TestNewestFirstIsForwardReversedOnAnyShape(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 99))
		n := 200 + rng.IntN(2800)
		var times []time.Time
		switch seed % 4 {
		case 0:
			times = uniformTimes(shapeEnd, n, time.Duration(1+rng.IntN(120))*time.Second)
		case 1:
			times = burstyTimes(shapeEnd, n, 1+rng.IntN(2500), rng)
		case 2:
			times = sparseTimes(shapeEnd, n, rng)
		case 3:
			times = jittered(uniformTimes(shapeEnd, n, time.Duration(1+rng.IntN(5))*time.Second), rng)
		}
		l := newShapeLog(times, 2+rng.IntN(40))
		pick := func() time.Time { return l.log[rng.IntN(len(l.log))].Value.Timestamp.Time }
		var f store.AuditFilter
		if rng.IntN(3) == 0 {
			f.Type = shapeTypes[rng.IntN(len(shapeTypes))]
		}
		if rng.IntN(4) == 0 {
			f.User = "rare@example.com"
		}
		if rng.IntN(3) == 0 {
			f.Until = pick()
		}
		if rng.IntN(3) == 0 {
			f.Since = pick()
			if !f.Until.IsZero() && f.Since.After(f.Until) {
				f.Since, f.Until = f.Until, f.Since
			}
		}
		limit := 0
		if rng.IntN(2) == 0 {
			limit = 1 + rng.IntN(1500)
		}
		chunk := 1 + rng.IntN(1200)
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			clock := newVirtualClock()
			clock.now = shapeEnd.Add(time.Minute)
			j := &audit.Job{Svc: l, Clock: clock}
			forward, _ := collect(t, j, f)
			slices.Reverse(forward)
			if limit > 0 && len(forward) > limit {
				forward = forward[:limit]
			}
			nf := f
			nf.Limit = limit
			got, _ := collectNewest(t, j, nf, chunk)
			if limit == 0 {
				// the console's windows: a Walk kept from one to the next
				var viaWalk []string
				w := j.NewestWalk(f)
				for range 10_000 {
					win, err := w.Next(context.Background(), chunk)
					if err != nil {
						t.Fatal(err)
					}
					viaWalk = append(viaWalk, idsOf(win.Entries)...)
					if win.Start || len(win.Entries) == 0 {
						break
					}
				}
				if !slices.Equal(viaWalk, forward) {
					t.Errorf("a Walk in windows of %d gave %d entries, the forward answer reversed %d", chunk, len(viaWalk), len(forward))
				}
			}
			if !slices.Equal(got, forward) {
				i := 0
				for i < min(len(got), len(forward)) && got[i] == forward[i] {
					i++
				}
				t.Errorf("%d entries, %s, limit %d, windows of %d: newest first gave %d entries, the forward answer reversed %d; they part at %d",
					n, compact(f), limit, chunk, len(got), len(forward), i)
			}
		})
	}
}
