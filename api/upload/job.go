package upload

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// Backend is what a run needs of the API client.
type Backend interface {
	UploadBatch(ctx context.Context, projectID string, files []api.UploadFile, mode api.DuplicateMode, sent func(int64)) (*api.UploadResult, error)
	FilesUploadedSince(ctx context.Context, projectID string, since time.Time) ([]api.ProjectFile, error)
	GetFiles(ctx context.Context, ids []string) ([]api.Item[api.FileDetail], error)
	// ProjectFilesPage is one page of the project's listing: what proves
	// that a file skipped under skip was skipped for its name (exists.go).
	ProjectFilesPage(ctx context.Context, projectID string, q api.FileQuery) (*api.FilePage, error)
}

// Steps of a batch at which a test may simulate kill -9 (Runner.crashAt).
const (
	StepQueued    = "queued"    // the run's batches are journaled, nothing started
	StepRecorded  = "recorded"  // the batch's start is journaled, the request not sent
	StepMidBody   = "mid-body"  // half of the batch's bytes were handed to the transport
	StepResponded = "responded" // the response arrived, the journal not yet written
	StepCompleted = "completed" // the journal holds the outcome
)

// ErrCrashed is what a run returns when crashAt stopped it: like kill -9,
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
	API Backend
	// Store keeps the journal (a *store.Store outside tests).
	Store   Journal
	Profile string
	// Owner names this process in leases; "" -> host:pid:random.
	Owner    string
	LeaseTTL time.Duration // 0 -> 2 minutes, renewed every LeaseTTL/4 while running
	Now      func() time.Time
	// Progress, when set, is called often (from several goroutines, never
	// at once); callers throttle what they draw.
	Progress func(Progress)
	// Steal says whether a lease holder is gone (its process died); nil ->
	// a holder on this host whose process no longer exists.
	Steal func(holder string) bool
	// Wait, when set, is told of each pause before a request (the shared
	// budget, a 429's Retry-After), so a command can say why it waits.
	Wait func(api.Wait)
	// Abort, when it ends, cancels the request in flight too (a second
	// Ctrl-C): its answer is then lost and the batch left for a resume to
	// reconcile. The run's own ctx waits for that answer instead.
	Abort context.Context
	// Limits, when set, is read before anything is sent (limits.go,
	// limitsrun.go): an upload or resume that would pass the project's
	// file count or size limit is refused with the numbers.
	Limits Metadata

	mu   sync.Mutex
	prog Progress
	// halted is the run's first journal error (halt.go): no request
	// follows it. laterHalts are the ones after it.
	halted     *journalError
	laterHalts []string
	// haltCtx is the run's ctx, ended also by the first journal error: a
	// request still waiting its turn then (the budget, a 429) is not sent.
	haltCtx    context.Context
	haltCancel context.CancelFunc
	// existed is, by project and name, the upload time of a file the
	// listing showed before a batch began (exists.go): proven once, it
	// stays proven for the runner's later batches.
	existed map[string]time.Time

	// Test seams, never set outside this package's tests. renewEvery
	// below 0 renews the leases by no ticker (the fault-injection tests
	// renew at chosen moments, so every write point has a number);
	// maxBatchFiles below the service's 50 makes many batches of few files.
	renewEvery    time.Duration
	maxBatchFiles int
	// openLocal opens a local file (nil: openFile): tests make files
	// unreadable with it. crashAt is asked at every step; true stops the
	// run there, as kill -9 would.
	openLocal func(string) (*os.File, error)
	crashAt   func(step string, batchID int64) bool
}

// Outcome is what became of a run's (or a resume's) files.
type Outcome struct {
	RunIDs   []int64
	Uploaded []store.JournalFile
	Skipped  []store.JournalFile
	Refused  []store.JournalFile
	Failed   []store.JournalFile
	// Unproven files: a lost answer, arrival neither provable nor safe to
	// re-send (see decide). Never counted as uploaded.
	Unproven []store.JournalFile
	// Of a run that sent files of one name from several folders (Settle):
	// the uploaded ones a later one of them superseded (taken out of
	// Uploaded), and the ones the service renamed (still in Uploaded).
	Replaced   []store.JournalFile
	Renamed    []store.JournalFile
	Unfinished int // batches left for a later --resume
	Errors     []string
	Notes      []string // what a resume did that the user should know
}

// Partial reports whether anything was refused, failed, unproven or left
// over.
func (o Outcome) Partial() bool {
	return len(o.Refused) > 0 || len(o.Failed) > 0 || len(o.Unproven) > 0 || o.Unfinished > 0
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) crash(step string, batch int64) bool {
	return r.crashAt != nil && r.crashAt(step, batch)
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
func (r *Runner) Upload(ctx context.Context, projectID string, plan Plan, mode api.DuplicateMode) (Outcome, error) {
	var out Outcome
	if err := r.checkBefore(ctx, projectID, plan, mode, &out); err != nil {
		return out, err
	}
	stoppedReading := ctx.Err()
	// A stop during that read (ctx ended) still journals the plan below:
	// sendAll then sends nothing and leaves every batch for --resume, as a
	// stop during the first batch's own budget wait does.
	refused := make([]store.JournalFile, 0, len(plan.Refused))
	for _, f := range plan.Refused {
		refused = append(refused, store.JournalFile{Local: f.Local, Name: baseName(f.Local), State: store.FileRefused, Reason: f.Reason})
	}
	var planned [][]store.JournalFile
	maxFiles := api.MaxFilesPerUpload
	if r.maxBatchFiles > 0 {
		maxFiles = min(r.maxBatchFiles, maxFiles)
	}
	for _, b := range Batches(plan.Files, maxFiles, MaxBatchBytes) {
		files := make([]store.JournalFile, len(b))
		for i, f := range b {
			files[i] = f.journal()
		}
		planned = append(planned, files)
	}
	// The whole plan in one transaction, before the first request: a plan
	// half written (a full disk) must not look like a smaller plan.
	run := store.UploadRun{Profile: r.Profile, ProjectID: projectID, Mode: string(mode)}
	run.ActorOSUser, run.ActorKey = writejob.Actor(ctx) // who, beyond the token's owner, as write jobs name it
	runID, batches, err := r.Store.RecordRun(run, refused, planned, r.lease())
	if err != nil {
		return out, err
	}
	out.RunIDs = append(out.RunIDs, runID)
	out.Refused = append(out.Refused, refused...)
	if r.crash(StepQueued, 0) {
		return out, ErrCrashed
	}
	err = r.sendAll(ctx, batches, &out)
	if stoppedReading != nil && r.Limits != nil {
		out.Errors = append(out.Errors, fmt.Sprintf("not sent: stopped while the project's limits were read (%v), before anything was sent; run `vaultdeck upload --resume` to send it", stoppedReading))
	}
	return out, err
}

// sendAll sends batches in order, preparing (opening and hashing) the next
// one while the current one is on the wire.
func (r *Runner) sendAll(ctx context.Context, batches []store.JournalBatch, out *Outcome) error {
	r.mu.Lock()
	r.halted, r.laterHalts = nil, nil
	r.haltCtx, r.haltCancel = context.WithCancel(ctx)
	defer r.haltCancel()
	r.mu.Unlock()
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
	// The producer stops with ctx: preparing reads every byte of a batch
	// to hash it, which a stopped upload must not pay for the batches it
	// will not send.
	prepCtx, cancelPrep := context.WithCancel(ctx)
	defer cancelPrep()
	go func() {
		defer close(next)
		for _, b := range batches {
			if prepCtx.Err() != nil {
				return
			}
			p := r.prepare(prepCtx, b)
			if prepCtx.Err() != nil {
				p.close()
				return
			}
			select {
			case next <- p:
			case <-prepCtx.Done():
				p.close()
				return
			}
		}
	}()
	defer func() {
		// Drain: close what was opened ahead. In the background, since the
		// producer may be stuck in an open(2) that no signal interrupts
		// (a file on a dead network mount); it exits when that returns.
		go func() {
			for p := range next {
				p.close()
			}
		}()
	}()
	var led runLedger
	i := 0                    // batches taken to be sent
	for r.haltedBy() == nil { // a journal error stops the run before its next request
		var p *prepared
		var ok bool
		// Waiting for the next batch to be prepared is where a stop must
		// act at once, whatever the preparing is blocked on.
		select {
		case p, ok = <-next:
		case <-ctx.Done():
		}
		if !ok {
			break
		}
		if ctx.Err() != nil {
			p.close()
			break
		}
		i++
		r.report(func(pr *Progress) { pr.Batch = i })
		err := r.send(ctx, p, out)
		p.close()
		if errors.Is(err, ErrCrashed) {
			cancelPrep()
			return err
		}
		if errors.Is(err, errHaltedUnsent) {
			out.Unfinished++
			led.notSent(p.batch)
			continue
		}
		if je, ok := asJournal(err); ok {
			r.halt(je)
			out.Unfinished++
			if je.sent {
				led.unrecorded = append(led.unrecorded, p.batch.ID)
			} else {
				led.notSent(p.batch)
			}
			continue
		}
		if err != nil {
			out.Errors = append(out.Errors, err.Error())
		} else {
			led.recorded = append(led.recorded, p.batch.ID)
		}
	}
	halted := r.haltedBy()
	if ctx.Err() != nil || halted != nil {
		// Stopped: the batches not sent stay pending in the journal for
		// --resume, released unprepared (the deferred drain closes the
		// ones already opened ahead).
		cancelPrep()
		var unreleased []string
		for _, b := range batches[i:] {
			out.Unfinished++
			led.notSent(b)
			if err := r.Store.ReleaseBatch(b.ID, r.owner(), ""); err != nil {
				unreleased = append(unreleased, fmt.Sprintf("batch %d: %v", b.ID, err))
			}
		}
		if len(unreleased) > 0 {
			out.Errors = append(out.Errors, fmt.Sprintf("the leases of the batches not sent could not be given back in the journal (%s); a resume takes them over once this process has ended, or after two minutes",
				strings.Join(unreleased, "; ")))
		}
	}
	if halted != nil {
		r.mu.Lock()
		later := append([]string(nil), r.laterHalts...)
		r.mu.Unlock()
		line := led.stopLine(halted, later)
		if len(led.unrecorded)+len(led.unsent) == 0 {
			// Nothing was held back (a renewal failed during the last
			// request, whose answer was then recorded): said, not failed.
			out.Notes = append(out.Notes, line)
		} else {
			out.Errors = append(out.Errors, line)
		}
	}
	return nil
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' || p[i] == os.PathSeparator {
			return p[i+1:]
		}
	}
	return p
}
