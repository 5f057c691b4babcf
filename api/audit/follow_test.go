package audit_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestFollowDoesNotChaseItself: once caught up with nothing else
// happening, each read finds only the api:audit_log_fetch entry of the
// read before it. Those pages mean caught up: the waits grow to a minute
// instead of re-reading every 2 seconds. An idle hour (virtual) costs
// about 65 reads, not 1,800; the entries are still delivered.
func TestFollowDoesNotChaseItself(t *testing.T) {
	clock := newVirtualClock()
	r := newRig(t, sim.Options{Seed: 7, AuditEntries: 1500}, clock)
	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var idleFrom time.Time
	var idleReads int64
	j := &audit.Job{Svc: r.client, Clock: clock}
	err := j.Follow(ctx, audit.FollowOptions{
		Sink: &audit.WriterSink{W: bufio.NewWriter(&out)},
		Event: func(ev audit.FollowEvent) {
			if ev.Err != nil {
				t.Errorf("transient error while idle: %v", ev.Err)
			}
			if ev.CaughtUp && idleFrom.IsZero() {
				idleFrom, idleReads = clock.Now(), r.requests.Load()
			}
			if !idleFrom.IsZero() && clock.Now().Sub(idleFrom) >= time.Hour {
				cancel()
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	reads := r.requests.Load() - idleReads
	t.Logf("an idle hour cost %d reads", reads)
	if reads > 80 {
		t.Errorf("an idle hour cost %d reads: the follower chases its own entries", reads)
	}
	ids := idsOfLines(t, out.String())
	full := r.fullLog(t)
	if len(ids) < 1500+int(reads)-2 || !slices.Equal(ids, full[:len(ids)]) {
		t.Errorf("delivered %d entries, not the service's first ones in order (it lists %d)", len(ids), len(full))
	}
}

// TestFollowKeepsPollingWhileOthersWrite: entries of other users (a
// trickle of 30 a minute) keep the polling at its base interval.
func TestFollowKeepsPollingWhileOthersWrite(t *testing.T) {
	clock := newVirtualClock()
	r := newRig(t, sim.Options{Seed: 7, AuditEntries: 50, AuditTrickle: 30}, clock)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var waits []time.Duration
	j := &audit.Job{Svc: r.client, Clock: clock}
	var out bytes.Buffer
	_ = j.Follow(ctx, audit.FollowOptions{Sink: &audit.WriterSink{W: bufio.NewWriter(&out)}, Event: func(ev audit.FollowEvent) {
		if ev.CaughtUp {
			waits = append(waits, ev.Wait)
		}
		if len(waits) == 100 {
			cancel()
		}
	}})
	long := 0
	for _, w := range waits {
		if w > 4*time.Second {
			long++
		}
	}
	if long > 60 { // a 2 s poll sees an entry about every second read
		t.Errorf("%d of 100 waits were long while users wrote entries", long)
	}
}

// TestFollowToFileResumesExactlyOnce: a file with a torn last line (a
// crash in the middle of a write) is repaired and followed on: every entry
// once, in order, whatever was torn.
func TestFollowToFileResumesExactlyOnce(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 7, NoRateLimit: true, AuditEntries: 2500}, nil)
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	once := func() {
		t.Helper()
		sink, err := audit.OpenFileSink(path)
		if err != nil {
			t.Fatal(err)
		}
		defer sink.Close()
		if err := (&audit.Job{Svc: r.client}).Follow(context.Background(), audit.FollowOptions{Sink: sink, Once: true}); err != nil {
			t.Fatal(err)
		}
	}
	once()
	data, _ := os.ReadFile(path)
	// tear the last line in the middle, as a kill during write(2) would
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	last := lines[len(lines)-1]
	torn := strings.Join(lines[:len(lines)-1], "") + last[:len(last)/2]
	if err := os.WriteFile(path, []byte(torn), 0o640); err != nil {
		t.Fatal(err)
	}
	once()
	data, _ = os.ReadFile(path)
	ids := idsOfLines(t, string(data))
	full := r.fullLog(t)
	if len(ids) < 2500 || !slices.Equal(ids, full[:len(ids)]) {
		t.Fatalf("the file holds %d entries, not the service's first ones once each in order", len(ids))
	}
}

// TestFileSinkRepairsTornLines covers what a crash can leave: nothing, a
// torn first line, a torn line after complete ones, a clean end.
func TestFileSinkRepairsTornLines(t *testing.T) {
	for _, tc := range []struct{ name, data, keep, resume string }{
		{"empty", "", "", ""},
		{"torn first line", `{"id":"a","ty`, "", ""},
		{"torn after two", `{"id":"a"}` + "\n" + `{"id":"b"}` + "\n" + `{"id":"c","data":{"x`, `{"id":"a"}` + "\n" + `{"id":"b"}` + "\n", "b"},
		{"clean", `{"id":"a"}` + "\n", `{"id":"a"}` + "\n", "a"},
		{"long last line", `{"id":"a"}` + "\n" + `{"id":"z","pad":"` + strings.Repeat("x", 200<<10) + `"}` + "\n", "", "z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.jsonl")
			os.WriteFile(path, []byte(tc.data), 0o640)
			s, err := audit.OpenFileSink(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got, _ := os.ReadFile(path)
			if tc.keep != "" && string(got) != tc.keep {
				t.Errorf("file after repair = %q", got)
			}
			if tc.keep == "" && tc.resume == "" && len(got) != 0 {
				t.Errorf("file after repair = %q", got)
			}
			if id, _ := s.Resume(context.Background()); id != tc.resume {
				t.Errorf("resume = %q, want %q", id, tc.resume)
			}
		})
	}
	// a last line that is not an entry is refused, not overwritten
	path := filepath.Join(t.TempDir(), "b.jsonl")
	os.WriteFile(path, []byte("hello\n"), 0o640)
	if _, err := audit.OpenFileSink(path); err == nil || !strings.Contains(err.Error(), "cannot say where to resume") {
		t.Errorf("a foreign last line: %v", err)
	}
}

// TestSIGHUPReopensTheFile: logrotate moves the file and sends SIGHUP;
// the follower writes on in a new file at the same path, and the old and
// new files together hold every entry once, in order. A restart after the
// rotation, with the new file still empty, resumes from the checkpoint.
func TestSIGHUPReopensTheFile(t *testing.T) {
	clock := newVirtualClock()
	r := newRig(t, sim.Options{Seed: 7, AuditEntries: 1200, AuditTrickle: 20}, clock)
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	m := newFakeMirror()
	sink, err := audit.OpenFileSink(path)
	if err != nil {
		t.Fatal(err)
	}
	sink.Checkpoints, sink.CheckpointName = m, "file:"+path
	hup := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	caught := 0
	err = (&audit.Job{Svc: r.client, Clock: clock}).Follow(ctx, audit.FollowOptions{Sink: sink, Reopen: hup, Event: func(ev audit.FollowEvent) {
		if !ev.CaughtUp {
			return
		}
		caught++
		switch caught {
		case 3:
			if err := os.Rename(path, path+".1"); err != nil {
				t.Fatal(err)
			}
			hup <- struct{}{}
		case 40:
			cancel()
		}
	}})
	sink.Close()
	if err != nil {
		t.Fatal(err)
	}
	// restart: the new file has lines, so it is its own checkpoint; then
	// rotate once more and restart on an empty file
	if err := os.Rename(path, path+".2"); err != nil {
		t.Fatal(err)
	}
	sink, err = audit.OpenFileSink(path)
	if err != nil {
		t.Fatal(err)
	}
	sink.Checkpoints, sink.CheckpointName = m, "file:"+path
	if err := (&audit.Job{Svc: r.client, Clock: clock}).Follow(context.Background(), audit.FollowOptions{Sink: sink, Once: true}); err != nil {
		t.Fatal(err)
	}
	sink.Close()
	var all []string
	for _, p := range []string{path + ".1", path + ".2", path} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ids := idsOfLines(t, string(data))
		if len(ids) == 0 {
			t.Errorf("%s is empty", filepath.Base(p))
		}
		all = append(all, ids...)
	}
	full := r.fullLog(t)
	if !slices.Equal(all, full[:len(all)]) {
		t.Fatalf("the rotated files hold %d entries, not the service's first ones once each in order", len(all))
	}
}
