package filestatusview

import (
	"testing"
	"time"
)

// A covered view drops its armed tick, and on being shown again polls once
// at once if a poll fell due meanwhile.
func TestCoveredViewPausesAndResumesDue(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{})
	r.run(r.m.Init())
	if fake.nCalls() != 1 || len(r.ticks) != 1 {
		t.Fatalf("init: calls=%d ticks=%d", fake.nCalls(), len(r.ticks))
	}
	r.m.Deactivate()
	r.now = r.now.Add(time.Hour) // long past due: many ticks would have fired
	armed := r.ticks[0]
	r.ticks = nil
	if _, cmd := r.m.Update(armed); cmd != nil {
		t.Fatal("a covered view polled on its old tick")
	}
	if fake.nCalls() != 1 {
		t.Fatalf("covered view polled: calls=%d", fake.nCalls())
	}
	r.run(r.m.Activate())
	if fake.nCalls() != 2 {
		t.Errorf("activate after the due time: calls=%d, want one immediate poll", fake.nCalls())
	}
	if len(r.ticks) != 1 {
		t.Errorf("activate did not re-arm polling: %d ticks", len(r.ticks))
	}
	if cmd := r.m.Activate(); cmd != nil {
		t.Error("a second Activate started more work")
	}
}

// Shown again before the next poll is due: no request, the tick is armed
// for the time that is left.
func TestCoveredViewResumesNotDue(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{BaseInterval: 10 * time.Second})
	r.run(r.m.Init())
	r.ticks = nil
	first := r.waits[0]
	r.m.Deactivate()
	r.now = r.now.Add(4 * time.Second)
	r.run(r.m.Activate())
	if fake.nCalls() != 1 {
		t.Errorf("activate before due polled: calls=%d", fake.nCalls())
	}
	if len(r.ticks) != 1 || r.waits[len(r.waits)-1] != first-4*time.Second {
		t.Errorf("re-armed ticks=%d waits=%v, want one tick for the %v left", len(r.ticks), r.waits, first-4*time.Second)
	}
	r.deliver()
	if fake.nCalls() != 2 {
		t.Errorf("re-armed tick did not poll: calls=%d", fake.nCalls())
	}
}

// A poll in flight when the view is covered still lands, but arms nothing.
func TestInFlightPollLandsWhileCovered(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{})
	cmd := r.m.Init() // the poll command, not yet run
	r.m.Deactivate()
	r.run(cmd)
	if !r.m.tr.Files[0].Seen {
		t.Error("answers of a poll that landed while covered were dropped")
	}
	if len(r.ticks) != 0 {
		t.Errorf("covered view armed %d ticks", len(r.ticks))
	}
	r.now = r.now.Add(time.Minute)
	r.run(r.m.Activate())
	if fake.nCalls() != 2 || len(r.ticks) != 1 {
		t.Errorf("resume: calls=%d ticks=%d", fake.nCalls(), len(r.ticks))
	}
}

// A clock set back while the view was covered (an NTP step, a restored VM
// snapshot) leaves the next poll's time hours ahead of the new now: the
// re-armed tick waits at most the plan's own interval, not the hours the
// clock jumped.
func TestClockSetBackWhileCoveredWaitsAtMostTheInterval(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a")
	r := newRig(t, fake, "a", Options{BaseInterval: 10 * time.Second})
	r.run(r.m.Init())
	r.ticks = nil
	first := r.waits[0]
	r.m.Deactivate()
	r.now = r.now.Add(-3 * time.Hour)
	r.run(r.m.Activate())
	if len(r.ticks) != 1 {
		t.Fatalf("re-armed ticks=%d, want 1", len(r.ticks))
	}
	if got := r.waits[len(r.waits)-1]; got > first {
		t.Errorf("after the clock went back 3h the tick waits %v, want at most the interval %v", got, first)
	}
}
