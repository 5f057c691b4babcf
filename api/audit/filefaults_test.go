package audit_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
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
	opWrite, opSync, opTruncate, opOpen, opCheckpoint, opProgress = "write", "sync", "truncate", "open", "checkpoint", "progress"
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
	opProgress:   {fBusy, fCrash}, // the follow's record for --check, beside the checkpoint
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

// SaveFollowProgress is the store's progress record with the injector:
// a failure is said and the follow goes on, a crash stops it.
func (m faultCheckpoints) SaveFollowProgress(ctx context.Context, name string, p store.FollowProgress) error {
	if fl, _, fail := m.in.hit(opProgress); fail {
		return errOf(fl)
	}
	return nil
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
			notice := func(n string) { out.notices = append(out.notices, n) }
			sink.Notice = notice
			return (&audit.Job{Svc: c, Clock: clock}).Follow(ctx, audit.SmallPages(audit.FollowOptions{Sink: sink, Once: true,
				Notice: notice, Progress: faultCheckpoints{store, in}, ProgressName: "file:" + path,
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
				}}, 4))
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
