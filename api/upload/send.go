// This file sends one prepared batch: it journals its start, sends the
// request, and journals the outcome (or leaves the batch open for a resume
// when the answer was lost).

package upload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
)

// send journals the batch's start, sends it, and journals the outcome. ctx
// is the run's: once the request is out its answer is awaited whatever ctx
// does, but while the request only waits its turn (the budget, a 429's
// Retry-After) ctx ending stops it unsent.
func (r *Runner) send(ctx context.Context, p *prepared, out *Outcome) error {
	b := p.batch
	began := r.now()
	if err := r.Store.StartBatch(b.ID, r.owner(), began, p.start); err != nil {
		// Not sent: the batch stays pending for a resume.
		return r.unsent(b.ID, &journalError{batch: b.ID, what: fmt.Sprintf("the start of batch %d", b.ID), err: err})
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
		if err := r.Store.CompleteBatch(b.ID, r.owner(), nil, ""); err != nil {
			return &journalError{batch: b.ID, what: fmt.Sprintf("the end of batch %d (none of its files could be sent)", b.ID), err: err}
		}
		return nil
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
	if r.Abort != nil {
		defer context.AfterFunc(r.Abort, cancel)()
	}
	if r.Wait != nil {
		reqCtx = api.WithWaitObserver(reqCtx, r.Wait)
	}
	// Until it goes out, the request stops with the run's ctx, and at the
	// run's first journal error (a renewal may fail while it waits):
	// haltCtx is a child of ctx that halt cancels.
	reqCtx = api.WithStopBeforeSending(reqCtx, r.haltCtx)
	// And it is not sent once the database's files changed under this
	// process (a log removed, the file replaced): its record would be lost.
	reqCtx = api.WithCheckBeforeSending(reqCtx, r.Store.Unchanged)
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
	if errors.Is(err, api.ErrNotSent) {
		// Nothing went out: the batch is pending again, as if never begun
		// (unless an earlier process began it), so a resume sends it
		// without reconciling. Left begun, a resume reconciles it first:
		// safe, but the error is said and stops the run.
		if uerr := r.Store.UnstartBatch(b.ID, r.owner(), began); uerr != nil && !errors.Is(err, store.ErrChanged) {
			return &journalError{batch: b.ID, what: fmt.Sprintf("that batch %d was not sent", b.ID), err: uerr}
		}
		if errors.Is(err, store.ErrChanged) {
			// The run stops here: no request follows (halt.go).
			return &journalError{batch: b.ID, what: fmt.Sprintf("batch %d was sent", b.ID), err: storeChanged(err), moved: true}
		}
		if r.haltedBy() != nil {
			return errHaltedUnsent // the run's stop line names it
		}
		out.Unfinished++
		var moved *api.WorkspaceChangedError
		if errors.As(err, &moved) { // refused before it went out, not a wait that ended
			return fmt.Errorf("batch %d: not sent: %v; `vaultdeck upload --resume` sends it once the profile answers for its workspace again", b.ID, err)
		}
		return fmt.Errorf("batch %d: not sent: stopped while it waited to be sent (%v); run `vaultdeck upload --resume` to send it", b.ID, err)
	}
	if err != nil {
		return r.failed(p, err, out)
	}
	if r.crash(StepResponded, b.ID) {
		return ErrCrashed
	}
	a, err := r.match(context.Background(), b, began, p.send, res)
	if err != nil {
		// The files arrived but could not be told apart: leave the batch
		// open, a resume reconciles it against the listing.
		if rerr := r.Store.ReleaseBatch(b.ID, r.owner(), err.Error()); rerr != nil {
			return &journalError{batch: b.ID, sent: true, what: fmt.Sprintf("the answer to batch %d (%v)", b.ID, err), err: rerr}
		}
		out.Unfinished++
		return err
	}
	// Files the answer does not prove stay pending with their reason: the
	// batch stays open for a resume to reconcile them.
	batchErr := ""
	if a.unproven > 0 {
		batchErr = fmt.Sprintf("the answer proved %d of %s", len(p.send)-a.unproven, plural.Count(len(p.send), "file"))
	}
	if err := r.Store.CompleteBatch(b.ID, r.owner(), a.outcomes, batchErr); err != nil {
		return &journalError{batch: b.ID, sent: true, what: fmt.Sprintf("the answer to batch %d", b.ID), err: err}
	}
	r.tally(p.send, a.outcomes, out)
	if a.unproven > 0 {
		out.Unfinished++
	}
	if len(a.stray) > 0 {
		out.Errors = append(out.Errors, fmt.Sprintf("batch %d: the service's answer holds what no file of the batch was matched to: %s",
			b.ID, strings.Join(a.stray, "; ")))
	}
	r.report(func(pr *Progress) { pr.BytesDone = base + total; pr.FilesDone += len(p.send) })
	if r.crash(StepCompleted, b.ID) {
		return ErrCrashed
	}
	return nil
}

// unsent gives back the lease of a batch that was not sent after its
// journal error e; a release that fails too is said with e.
func (r *Runner) unsent(batch int64, e *journalError) error {
	if err := r.Store.ReleaseBatch(batch, r.owner(), ""); err != nil {
		e.also = fmt.Sprintf(" (nor could its lease be given back: %v; a resume takes it over once this process has ended, or after two minutes)", err)
	}
	return e
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
		if rerr := r.Store.ReleaseBatch(p.batch.ID, r.owner(), err.Error()); rerr != nil {
			return &journalError{batch: p.batch.ID, sent: true, what: fmt.Sprintf("that the answer to batch %d was lost (%v)", p.batch.ID, err), err: rerr}
		}
		out.Unfinished++
		if errors.Is(err, api.KindRateLimited) {
			// The client waited and re-sent as long as it may; a 429 means
			// nothing was accepted, so this is not a lost response.
			return fmt.Errorf("batch %d: not sent: the service's rate limit refused it each time (%v); run `vaultdeck upload --resume` to send it", p.batch.ID, err)
		}
		return fmt.Errorf("batch %d: the response was lost (%v); run `vaultdeck upload --resume` to check what arrived", p.batch.ID, err)
	}
	outcomes := make([]store.FileOutcome, len(p.send))
	for i, f := range p.send {
		outcomes[i] = store.FileOutcome{ID: f.ID, State: store.FileFailed, Reason: err.Error()}
	}
	if cerr := r.Store.CompleteBatch(p.batch.ID, r.owner(), outcomes, err.Error()); cerr != nil {
		return &journalError{batch: p.batch.ID, sent: true, what: fmt.Sprintf("the service's refusal of batch %d (%v)", p.batch.ID, err), err: cerr}
	}
	for _, f := range p.send {
		f.State, f.Reason = store.FileFailed, err.Error()
		out.Failed = append(out.Failed, f)
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
		case store.FilePending: // unproven by the answer, left for a resume
			out.Unproven = append(out.Unproven, f)
		}
	}
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
