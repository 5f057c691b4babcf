package audit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// The follow file under injected faults (issue 25, cases 4 and 5): every
// write point of a follow (append, fsync, the cut of a failed batch, the
// reopen after a rotation, the checkpoint) is made to fail once, with each
// fault that can happen there, while the file is rotated between batches
// by copytruncate and by rename; the follower is restarted as a new one
// on the same file after it stops, and a checker reads every file: each
// line whole and an entry, every entry of the simulator once, in order.

// Write points (the seam's operations a fault is put on) and faults.
const (
	opWrite, opSync, opTruncate, opOpen, opCheckpoint = "write", "sync", "truncate", "open", "checkpoint"
)

type fault string

const (
	fENOSPC fault = "ENOSPC"
	fEIO    fault = "EIO"
	fShort  fault = "short write"
	fCrash  fault = "crash"
	fBusy   fault = "store busy"
)

var faultsAt = map[string][]fault{
	opWrite:      {fENOSPC, fEIO, fShort, fCrash},
	opSync:       {fENOSPC, fEIO, fCrash},
	opTruncate:   {fEIO, fCrash}, // only after a failed write or fsync (then, below)
	opOpen:       {fENOSPC, fEIO, fCrash},
	opCheckpoint: {fBusy, fCrash},
}

var errCrashed = errors.New("the process stopped here (injected crash)")

// injector counts the write points of one follower process and fails the
// one at index at (-1: none) with f. A crash stops the process: its
// context ends and nothing after it reaches the disk or the store.
type injector struct {
	at      int
	f       fault
	then    fault // a second fault, on the cut of the failed batch right after the first
	n       int
	ops     []string // every point seen, in order (the dry run's map)
	crashed bool
	stop    context.CancelFunc
}

// hit says what the point op does: fail false (go on), or fail with f;
// now is true for the faulty call itself (a write does part of its work
// first), false for every call after a crash (nothing happens at all).
func (in *injector) hit(op string) (f fault, now, fail bool) {
	if in.crashed {
		return fCrash, false, true
	}
	in.ops = append(in.ops, op)
	i := in.n
	in.n++
	f = in.f
	switch {
	case i == in.at+1 && in.then != "" && op == opTruncate:
		f = in.then
	case i != in.at:
		return "", false, false
	}
	if f == fCrash {
		in.crashed = true
		in.stop()
	}
	return f, true, true
}

func errOf(f fault) error {
	switch f {
	case fENOSPC:
		return syscall.ENOSPC
	case fEIO:
		return syscall.EIO
	case fBusy:
		return errors.New("database is locked (SQLITE_BUSY)")
	}
	return errCrashed
}

type faultFS struct{ in *injector }

func (fs faultFS) Open(path string) (audit.FollowFile, error) {
	if f, _, fail := fs.in.hit(opOpen); fail {
		return nil, &os.PathError{Op: "open", Path: path, Err: errOf(f)}
	}
	f, err := audit.OSFollowFS{}.Open(path)
	if err != nil {
		return nil, err
	}
	return &faultFile{File: f.(*os.File), in: fs.in}, nil
}

func (fs faultFS) Lstat(path string) (os.FileInfo, error) { return os.Lstat(path) }

type faultFile struct {
	*os.File
	in *injector
}

func (f *faultFile) Write(p []byte) (int, error) {
	fl, now, fail := f.in.hit(opWrite)
	if !fail {
		return f.File.Write(p)
	}
	if !now {
		return 0, errCrashed // after the crash: nothing more reaches the disk
	}
	n, _ := f.File.Write(p[:len(p)/2]) // a full disk, a failing device, a kill: part of it is written
	if fl == fShort {
		return n, nil
	}
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: errOf(fl)}
}

func (f *faultFile) Sync() error {
	if fl, _, fail := f.in.hit(opSync); fail {
		return &os.PathError{Op: "sync", Path: f.Name(), Err: errOf(fl)}
	}
	return f.File.Sync()
}

func (f *faultFile) Truncate(size int64) error {
	if fl, _, fail := f.in.hit(opTruncate); fail {
		return &os.PathError{Op: "truncate", Path: f.Name(), Err: errOf(fl)}
	}
	return f.File.Truncate(size)
}

// faultCheckpoints is the store's checkpoint with the same injector.
type faultCheckpoints struct {
	*fakeMirror
	in *injector
}

func (m faultCheckpoints) SaveAuditCheckpoint(ctx context.Context, name, id string) error {
	if fl, _, fail := m.in.hit(opCheckpoint); fail {
		return errOf(fl)
	}
	return m.fakeMirror.SaveAuditCheckpoint(ctx, name, id)
}

// memTransport serves requests from the simulator in memory: a schedule
// costs no socket, so hundreds of them run in seconds.
type memTransport struct {
	h http.Handler
	n atomic.Int64
}

func (t *memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.n.Add(1)
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	res := rec.Result()
	res.Request = r
	return res, nil
}

func memClient(t *testing.T, s *sim.Server, clock api.Clock) (*api.Client, *memTransport) {
	t.Helper()
	tr := &memTransport{h: s}
	c, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", Token: api.StaticToken(s.Token("admin")), Clock: clock,
		HTTPClient: &http.Client{Transport: tr}, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1}})
	if err != nil {
		t.Fatal(err)
	}
	return c, tr
}

// schedule is one run: a seed (the log's size and where it is rotated)
// and the one fault (at: the index of the write point; -1: none).
type schedule struct {
	seed int64
	at   int
	f    fault
	then fault // on the cut of the batch that failed (a fault during the repair)
}

func (s schedule) String() string {
	if s.then != "" {
		return fmt.Sprintf("seed %d, %s at write point %d, then %s cutting it off", s.seed, s.f, s.at, s.then)
	}
	return fmt.Sprintf("seed %d, %s at write point %d", s.seed, s.f, s.at)
}

// outcome is what a schedule left.
type outcome struct {
	ops      []string // the write points of the first process (the dry run's map)
	problems []string
	notices  []string
}

// runSchedule follows a fresh simulator's log to a file with Once, with
// the schedule's fault in the first process and rotations between
// batches; a follower that stops (an error, a crash) is replaced by a new
// one on the same file, until one finishes. Then it checks the files.
func runSchedule(t *testing.T, dir string, sc schedule) outcome {
	rng := rand.New(rand.NewPCG(uint64(sc.seed), 25))
	clock := newVirtualClock()
	s := sim.New(sim.Options{Seed: sc.seed, NoRateLimit: true, AuditEntries: 20 + rng.IntN(20), Now: clock.Now})
	c, tr := memClient(t, s, clock)
	path := filepath.Join(dir, "audit.jsonl")
	rotations := map[int]string{2 + rng.IntN(3): "copytruncate", 6 + rng.IntN(3): "rename"}
	var rotated []string
	store := newFakeMirror()
	var out outcome
	batch := 0
	for proc := 0; proc < 4; proc++ {
		ctx, cancel := context.WithCancel(context.Background())
		in := &injector{at: -1, stop: cancel}
		if proc == 0 {
			in.at, in.f, in.then = sc.at, sc.f, sc.then
		}
		err := func() error {
			sink, err := audit.OpenFileSinkFS(faultFS{in}, path)
			if err != nil {
				return err
			}
			defer sink.Close() // a crashed process's files are closed by its end too
			sink.Checkpoints, sink.CheckpointName = faultCheckpoints{store, in}, "file:"+path
			return (&audit.Job{Svc: c, Clock: clock}).Follow(ctx, audit.FollowOptions{Sink: sink, Once: true, Take: 4,
				Notice: func(n string) { out.notices = append(out.notices, n) },
				Event: func(ev audit.FollowEvent) {
					if ev.Err != nil || ev.Delivered == 0 {
						return
					}
					batch++
					kind := rotations[batch]
					if kind == "" {
						return
					}
					if _, err := os.Stat(path); err != nil {
						return // nothing there to rotate yet
					}
					old := path + "." + strconv.Itoa(len(rotated)+1)
					rotated = append(rotated, old)
					if kind == "rename" {
						if err := os.Rename(path, old); err != nil {
							t.Fatal(err)
						}
						return
					}
					data, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(old, data, 0o640); err != nil {
						t.Fatal(err)
					}
					if err := os.Truncate(path, 0); err != nil {
						t.Fatal(err)
					}
				}})
		}()
		if proc == 0 {
			out.ops = in.ops
		}
		crashed := in.crashed
		cancel()
		if err == nil && !crashed {
			break
		}
		if proc == 3 {
			out.problems = append(out.problems, fmt.Sprintf("the follower did not finish after 3 restarts: %v", err))
		}
	}
	out.problems = append(out.problems, checkFiles(c, tr, append(rotated, path))...)
	return out
}

// checkFiles reads the files in rotation order: every line whole and an
// entry, and together every entry of the log once, in the log's order,
// up to the follower's last read.
func checkFiles(c *api.Client, tr *memTransport, files []string) []string {
	var problems []string
	var ids []string
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return append(problems, err.Error())
		}
		if len(data) > 0 && data[len(data)-1] != '\n' {
			problems = append(problems, fmt.Sprintf("%s ends in a torn line: %q", filepath.Base(p), tail(data)))
		}
		got, bad := parseLines(data)
		if bad != "" {
			problems = append(problems, fmt.Sprintf("%s holds a line that is not one entry: %q", filepath.Base(p), bad))
		}
		ids = append(ids, got...)
	}
	before := tr.n.Load()
	var full []string
	err := c.EachAuditPage(context.Background(), "", func(page []api.Item[api.AuditEntry]) error {
		for _, it := range page {
			full = append(full, it.Value.ID)
		}
		return nil
	})
	if err != nil {
		return append(problems, err.Error())
	}
	full = full[:len(full)-int(tr.n.Load()-before)] // the checker's own reads are not the follower's to deliver
	seen := map[string]int{}
	for i, id := range ids {
		if j, ok := seen[id]; ok {
			return append(problems, fmt.Sprintf("entry %s is in the files twice (lines %d and %d of %d)", id, j+1, i+1, len(ids)))
		}
		seen[id] = i
	}
	for i := range min(len(ids), len(full)) {
		if ids[i] != full[i] {
			return append(problems, fmt.Sprintf("entry %d of the files is %s, the log's is %s (lost or out of order)", i+1, ids[i], full[i]))
		}
	}
	if len(ids) != len(full) {
		problems = append(problems, fmt.Sprintf("the files hold %d entries, the log %d", len(ids), len(full)))
	}
	return problems
}

func tail(b []byte) []byte { return b[max(0, len(b)-60):] }

// parseLines is the id of every line; bad is the first line that is not
// exactly one JSON object with an id.
func parseLines(data []byte) (ids []string, bad string) {
	for len(data) > 0 {
		i := 0
		for i < len(data) && data[i] != '\n' {
			i++
		}
		line := data[:i]
		if i < len(data) {
			i++
		}
		data = data[i:]
		id, ok := oneEntry(line)
		if !ok {
			if bad == "" {
				bad = string(tail(line))
			}
			continue
		}
		ids = append(ids, id)
	}
	return ids, bad
}

// schedules is the walk: for each seed, every write point of a run
// without faults, with every fault that point can meet; until n.
func schedules(t *testing.T, n int) []schedule {
	var out []schedule
	for seed := int64(1); len(out) < n; seed++ {
		dry := runSchedule(t, scratch(t), schedule{seed: seed, at: -1})
		if len(dry.problems) > 0 {
			t.Errorf("seed %d without faults: %v", seed, dry.problems)
		}
		for i, op := range dry.ops {
			for _, f := range faultsAt[op] {
				out = append(out, schedule{seed: seed, at: i, f: f})
			}
			if op == opWrite || op == opSync {
				// the cut of a failed batch is a write point only after a
				// failure: walk its faults behind each failure that cuts
				for _, then := range faultsAt[opTruncate] {
					out = append(out, schedule{seed: seed, at: i, f: fENOSPC, then: then})
				}
			}
		}
	}
	return out[:n]
}

// scratch is a directory for one schedule: in memory (/dev/shm) where
// there is one, since each batch is fsynced and a disk's fsyncs would make
// the walk take minutes instead of seconds; the faults are the seam's.
func scratch(t *testing.T) string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "vaultdeck-follow-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return t.TempDir()
}

// TestFollowFileUnderFaults walks the schedules (300; more with
// VAULTDECK_FAULT_SCHEDULES) and checks each run's files.
func TestFollowFileUnderFaults(t *testing.T) {
	n := 300
	if v, err := strconv.Atoi(os.Getenv("VAULTDECK_FAULT_SCHEDULES")); err == nil && v > 0 {
		n = v
	}
	failed := 0
	points := map[string]int{}
	for _, sc := range schedules(t, n) {
		out := runSchedule(t, scratch(t), sc)
		points[string(sc.f)]++
		if sc.then != "" {
			points["then "+string(sc.then)]++
		}
		if len(out.problems) > 0 {
			failed++
			if failed <= 8 {
				t.Errorf("%s: %v (said: %q)", sc, out.problems, out.notices)
			}
		}
	}
	t.Logf("%d schedules (%v), %d failed", n, points, failed)
	if failed > 8 {
		t.Errorf("... %d schedules failed in all", failed)
	}
}

// oneEntry is the id of line when it is exactly one JSON object with one.
func oneEntry(line []byte) (string, bool) {
	var e struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(line, &e) != nil || e.ID == "" {
		return "", false
	}
	return e.ID, true
}
