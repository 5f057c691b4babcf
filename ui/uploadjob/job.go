// Package uploadjob runs uploads with a journal: it records every batch in
// the store before its request is sent, completes it with the returned file
// IDs in one transaction, and resumes interrupted runs without sending a
// file twice. The CLI and the console both drive it; it draws nothing.
package uploadjob

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/uploadplan"
	"github.com/vaultdeck/vaultdeck/store"
)

// Backend is what a run needs of the API client.
type Backend interface {
	UploadBatch(ctx context.Context, projectID string, files []api.UploadFile, mode api.DuplicateMode, sent func(int64)) (*api.UploadResult, error)
	FilesUploadedSince(ctx context.Context, projectID string, since time.Time) ([]api.ProjectFile, error)
	GetFiles(ctx context.Context, ids []string) ([]api.FileDetail, error)
}

// Steps of a batch at which a test may simulate kill -9 (Runner.Crash).
const (
	StepQueued    = "queued"    // the run's batches are journaled, nothing started
	StepRecorded  = "recorded"  // the batch's start is journaled, the request not sent
	StepMidBody   = "mid-body"  // half of the batch's bytes were handed to the transport
	StepResponded = "responded" // the response arrived, the journal not yet written
	StepCompleted = "completed" // the journal holds the outcome
)

// ErrCrashed is what a run returns when Crash stopped it: like kill -9,
// nothing after the step was done (no journal write, no lease released).
var ErrCrashed = errors.New("simulated crash")

// Progress is a snapshot of a run, for progress bars and lines.
type Progress struct {
	Files, FilesDone int
	Bytes, BytesDone int64
	Batch, Batches   int // 1-based batch being sent, of how many
	Started          time.Time
}

// Runner runs and resumes uploads for one profile.
type Runner struct {
	API     Backend
	Store   *store.Store
	Profile string
	// Owner names this process in leases; "" -> host:pid:random.
	Owner    string
	LeaseTTL time.Duration // 0 -> 2 minutes, renewed while running
	Now      func() time.Time
	// Open opens a local file (tests make files unreadable with it).
	Open func(string) (*os.File, error)
	// Progress, when set, is called often (from several goroutines, never
	// at once); callers throttle what they draw.
	Progress func(Progress)
	// Steal says whether a lease holder is gone (its process died); nil ->
	// a holder on this host whose process no longer exists.
	Steal func(holder string) bool
	// Crash, in tests, is asked at every step; true stops the run there.
	Crash func(step string, batchID int64) bool

	mu   sync.Mutex
	prog Progress
}

// Outcome is what became of a run's (or a resume's) files.
type Outcome struct {
	RunIDs     []int64
	Uploaded   []store.JournalFile
	Skipped    []store.JournalFile
	Refused    []store.JournalFile
	Failed     []store.JournalFile
	Unfinished int // batches left for a later --resume
	Errors     []string
}

// Partial reports whether anything was refused, failed or left over.
func (o Outcome) Partial() bool {
	return len(o.Refused) > 0 || len(o.Failed) > 0 || o.Unfinished > 0
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) ttl() time.Duration {
	if r.LeaseTTL > 0 {
		return r.LeaseTTL
	}
	return 2 * time.Minute
}

func (r *Runner) owner() string {
	if r.Owner == "" {
		r.Owner = defaultOwner()
	}
	return r.Owner
}

func (r *Runner) lease() store.Lease {
	steal := r.Steal
	if steal == nil {
		steal = holderIsGone
	}
	return store.Lease{Owner: r.owner(), Until: r.now().Add(r.ttl()), Steal: steal}
}

func (r *Runner) crash(step string, batch int64) bool {
	return r.Crash != nil && r.Crash(step, batch)
}

// keepLeases renews this process's leases until stop is called, so a long
// request keeps its batch.
func (r *Runner) keepLeases() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(r.ttl() / 4)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = r.Store.RenewLeases(r.owner(), r.now().Add(r.ttl()))
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

func (r *Runner) report(update func(p *Progress)) {
	r.mu.Lock()
	update(&r.prog)
	p := r.prog
	r.mu.Unlock()
	if r.Progress != nil {
		r.Progress(p)
	}
}

// Upload journals plan as a new run and sends it batch by batch. When ctx
// ends, the batch being sent still gets its response (a response lost is
// what would cause duplicates); the batches not started stay in the
// journal for --resume.
func (r *Runner) Upload(ctx context.Context, projectID string, plan uploadplan.Plan, mode api.DuplicateMode) (Outcome, error) {
	var out Outcome
	runID, err := r.Store.CreateRun(store.UploadRun{Profile: r.Profile, ProjectID: projectID, Mode: string(mode)})
	if err != nil {
		return out, err
	}
	out.RunIDs = append(out.RunIDs, runID)
	for _, f := range plan.Refused {
		if err := r.Store.RecordRefused(runID, f.Local, baseName(f.Local), f.Reason); err != nil {
			return out, err
		}
		out.Refused = append(out.Refused, store.JournalFile{Local: f.Local, Name: baseName(f.Local), State: store.FileRefused, Reason: f.Reason})
	}
	var batches []store.JournalBatch
	for _, b := range uploadplan.Batches(plan.Files, api.MaxFilesPerUpload, uploadplan.MaxBatchBytes) {
		files := make([]store.JournalFile, len(b))
		for i, f := range b {
			files[i] = store.JournalFile{Local: f.Local, Path: f.Path, Name: f.Name, Size: f.Size}
		}
		jb, err := r.Store.RecordBatch(runID, files, r.lease())
		if err != nil {
			return out, err
		}
		batches = append(batches, jb)
	}
	if r.crash(StepQueued, 0) {
		return out, ErrCrashed
	}
	return out, r.sendAll(ctx, batches, &out)
}

// sendAll sends batches in order, preparing (opening and hashing) the next
// one while the current one is on the wire.
func (r *Runner) sendAll(ctx context.Context, batches []store.JournalBatch, out *Outcome) error {
	stop := r.keepLeases()
	defer stop()
	r.report(func(p *Progress) {
		*p = Progress{Batches: len(batches), Started: r.now()}
		for _, b := range batches {
			for _, f := range b.Files {
				if f.State == store.FilePending {
					p.Files++
					p.Bytes += f.Size
				}
			}
		}
	})
	next := make(chan *prepared, 1)
	prepCtx, cancelPrep := context.WithCancel(context.Background())
	defer cancelPrep()
	go func() {
		defer close(next)
		for _, b := range batches {
			p := r.prepare(b)
			select {
			case next <- p:
			case <-prepCtx.Done():
				p.close()
				return
			}
		}
	}()
	defer func() {
		for p := range next { // drain: close what was opened ahead
			p.close()
		}
	}()
	i := 0
	for p := range next {
		i++
		if ctx.Err() != nil {
			p.close()
			out.Unfinished++
			_ = r.Store.ReleaseBatch(p.batch.ID, r.owner(), "")
			continue
		}
		r.report(func(pr *Progress) { pr.Batch = i })
		err := r.send(p, out)
		p.close()
		if errors.Is(err, ErrCrashed) {
			cancelPrep()
			return err
		}
		if err != nil {
			out.Errors = append(out.Errors, err.Error())
		}
	}
	return nil
}

// prepared is a batch whose files are open and hashed, ready to send.
type prepared struct {
	batch store.JournalBatch
	send  []store.JournalFile // files to send (pending, readable, unchanged)
	fds   []*os.File
	start []store.JournalFile // every pending file's measured state, for StartBatch
}

func (p *prepared) close() {
	for _, f := range p.fds {
		f.Close()
	}
	p.fds = nil
}

// prepare opens and hashes each pending file of a batch. A file that
// vanished, cannot be read, grew over the limit, or (on a resume) no longer
// has the content journaled is refused by name; the descriptor stays open
// until the batch is sent, so a file removed now is still sent whole.
func (r *Runner) prepare(b store.JournalBatch) *prepared {
	p := &prepared{batch: b}
	open := r.Open
	if open == nil {
		open = os.Open
	}
	buf := make([]byte, 256<<10)
	for _, f := range b.Files {
		if f.State != store.FilePending {
			continue
		}
		refuse := func(reason string) {
			f.State, f.Reason = store.FileRefused, reason
			p.start = append(p.start, f)
		}
		fd, err := open(f.Local)
		if err != nil {
			if os.IsNotExist(err) {
				refuse("vanished since it was listed")
			} else {
				refuse("cannot be read: " + errText(err))
			}
			continue
		}
		fi, err := fd.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			fd.Close()
			refuse("is no longer a regular file")
			continue
		}
		if fi.Size() > api.MaxFileBytes {
			fd.Close()
			refuse(fmt.Sprintf("%d bytes, over the %d-byte per-file limit", fi.Size(), api.MaxFileBytes))
			continue
		}
		// CRC-32C, not SHA-256: the hash only tells whether the local file
		// changed before a resume re-sends it (no adversary), and the CPU
		// SHA-256 took was a fifth of an upload's on loopback (see
		// BENCHMARKS.md); CRC-32C runs in hardware.
		h := crc32.New(castagnoli)
		n, err := io.CopyBuffer(h, io.NewSectionReader(fd, 0, fi.Size()), buf)
		if err != nil || n != fi.Size() {
			fd.Close()
			refuse("cannot be read: " + errText(err))
			continue
		}
		sum := "crc32c:" + hex.EncodeToString(h.Sum(nil))
		if f.ContentHash != "" && f.ContentHash != sum {
			fd.Close()
			refuse("changed since the interrupted upload; upload it again as a new run")
			continue
		}
		f.Size, f.ContentHash = fi.Size(), sum
		p.start = append(p.start, f)
		p.send = append(p.send, f)
		p.fds = append(p.fds, fd)
	}
	return p
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func errText(err error) string {
	if err == nil {
		return "short read"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// send journals the batch's start, sends it, and journals the outcome.
func (r *Runner) send(p *prepared, out *Outcome) error {
	b := p.batch
	if err := r.Store.StartBatch(b.ID, r.owner(), r.now(), p.start); err != nil {
		return err
	}
	for _, f := range p.start {
		if f.State == store.FileRefused {
			out.Refused = append(out.Refused, f)
			r.report(func(pr *Progress) { pr.Files--; pr.Bytes -= f.Size })
		}
	}
	if r.crash(StepRecorded, b.ID) {
		return ErrCrashed
	}
	if len(p.send) == 0 {
		return r.Store.CompleteBatch(b.ID, r.owner(), nil, "")
	}
	// A simulated crash must stop the body where it is, as a killed
	// process would: the transport might otherwise finish writing it.
	var crashed atomic.Bool
	files := make([]api.UploadFile, len(p.send))
	var total int64
	for i, f := range p.send {
		fd, size := p.fds[i], f.Size
		files[i] = api.UploadFile{Name: f.Name, Path: f.Path, Size: size, Open: func() (io.ReadCloser, error) {
			return io.NopCloser(stoppable{io.NewSectionReader(fd, 0, size), &crashed}), nil
		}}
		total += size
	}
	// The request is not tied to the caller's context: once begun, its
	// response is what the journal needs, so a cancel waits for it.
	reqCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last int64
	base := r.bytesDone()
	sent := func(n int64) {
		if !crashed.Load() && last < total/2 && n >= total/2 && r.crash(StepMidBody, b.ID) {
			crashed.Store(true)
			cancel()
		}
		last = n
		r.report(func(pr *Progress) { pr.BytesDone = base + n })
	}
	res, err := r.API.UploadBatch(reqCtx, b.Run.ProjectID, files, api.DuplicateMode(b.Run.Mode), sent)
	if crashed.Load() {
		return ErrCrashed
	}
	if err != nil {
		return r.failed(p, err, out)
	}
	if r.crash(StepResponded, b.ID) {
		return ErrCrashed
	}
	outcomes, err := r.match(context.Background(), b.Run.Mode, p.send, res.FileIDs)
	if err != nil {
		// The files arrived but could not be told apart: leave the batch
		// open, a resume reconciles it against the listing.
		_ = r.Store.ReleaseBatch(b.ID, r.owner(), err.Error())
		out.Unfinished++
		return err
	}
	if err := r.Store.CompleteBatch(b.ID, r.owner(), outcomes, ""); err != nil {
		return err
	}
	r.tally(p.send, outcomes, out)
	r.report(func(pr *Progress) { pr.BytesDone = base + total; pr.FilesDone += len(p.send) })
	if r.crash(StepCompleted, b.ID) {
		return ErrCrashed
	}
	return nil
}

func (r *Runner) bytesDone() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.prog.BytesDone
}

// failed handles a request that did not get a usable answer. When the
// service answered with a refusal, nothing of the batch was stored: its
// files fail with the reason. When the answer was lost (network, timeout,
// cancel), the files may or may not have arrived: the batch stays open for
// a resume to reconcile, never to be re-sent blindly.
func (r *Runner) failed(p *prepared, err error, out *Outcome) error {
	var ae *api.Error
	answered := errors.As(err, &ae) && ae.Status >= 400 && ae.Status < 500 && ae.Status != 408 && ae.Status != 429
	if !answered {
		_ = r.Store.ReleaseBatch(p.batch.ID, r.owner(), err.Error())
		out.Unfinished++
		return fmt.Errorf("batch %d: the response was lost (%v); run `vaultdeck upload --resume` to check what arrived", p.batch.ID, err)
	}
	outcomes := make([]store.FileOutcome, len(p.send))
	for i, f := range p.send {
		outcomes[i] = store.FileOutcome{ID: f.ID, State: store.FileFailed, Reason: err.Error()}
		f.State, f.Reason = store.FileFailed, err.Error()
		out.Failed = append(out.Failed, f)
	}
	if cerr := r.Store.CompleteBatch(p.batch.ID, r.owner(), outcomes, err.Error()); cerr != nil {
		return cerr
	}
	return err
}

func (r *Runner) tally(sent []store.JournalFile, outcomes []store.FileOutcome, out *Outcome) {
	for i, o := range outcomes {
		f := sent[i]
		f.State, f.FileID, f.Reason = o.State, o.FileID, o.Reason
		switch o.State {
		case store.FileUploaded:
			out.Uploaded = append(out.Uploaded, f)
		case store.FileSkipped:
			out.Skipped = append(out.Skipped, f)
		}
	}
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == os.PathSeparator {
			return p[i+1:]
		}
	}
	return p
}

// stoppable fails reads once stop is set.
type stoppable struct {
	r    io.Reader
	stop *atomic.Bool
}

func (s stoppable) Read(p []byte) (int, error) {
	if s.stop.Load() {
		return 0, ErrCrashed
	}
	return s.r.Read(p)
}
