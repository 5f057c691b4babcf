package upload

// The world of the fault walk: a simulator, and "processes" that each open
// the database twice as the command line does (the journal's Store and the
// budget ledger's), through their own storefault Injectors. A crashed
// process is abandoned: its Stores write nothing more and its guard sends
// nothing more; the next process opens the same file afresh.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

type faultWorld struct {
	t    *testing.T
	root string
	plan Plan
	per  int // files per batch
	seq  int
	// template is a migrated, empty database file.
	template []byte
	// planFailed: this schedule's run returned an error (its plan may not
	// be in the journal).
	planFailed bool
	svc        *service // the simulator every schedule's project is on
	struck     int      // schedules whose fault struck where it was armed
}

func newFaultWorld(t *testing.T, files, per int) *faultWorld {
	w := &faultWorld{t: t, root: t.TempDir(), per: per}
	for i := range files {
		p := filepath.Join(w.root, "docs", fmt.Sprintf("doc-%d.pdf", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("document %d %s", i, strings.Repeat("x", 100+i))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.plan = Walk([]string{filepath.Join(w.root, "docs")})
	if len(w.plan.Files) != files {
		t.Fatalf("planned %d files of %d", len(w.plan.Files), files)
	}
	return w
}

// service is one schedule's simulator and project.
type service struct {
	sim     *sim.Server
	url     string
	http    *http.Client // one transport: its connections are kept
	project string
}

// process is one vaultdeck process: its two Stores, client, runner, guard.
type process struct {
	journal, ledger *storefault.Injector
	jst, lst        *store.Store
	runner          *Runner
	guard           *guard
	journalFault    storefault.Fault // armed on the journal, if any
	told            *toldJournal
	lostListing     bool // every listing of the project's files is lost
}

func (p *process) close() {
	p.jst.Close()
	if p.lst != nil {
		p.lst.Close()
	}
}

func (p *process) crashed() bool { return p.journal.Crashed() || p.ledger.Crashed() }

// start opens a process on the schedule's database; arm, when not nil, is
// given both Injectors once the schedule's Stores are open and migrated.
// withLedger opens the budget ledger's Store too, as the command line does;
// without it (the walk of the journal's points, where it only costs time)
// the budget is the process's own.
func (w *faultWorld) start(db string, svc *service, reader *store.Store, withLedger bool, arm func(journal, ledger *storefault.Injector)) (*process, error) {
	w.seq++
	p := &process{journal: storefault.New(), ledger: storefault.New()}
	var err error
	if p.jst, err = p.journal.Open(db); err != nil {
		return nil, err
	}
	cfg := api.Config{BaseURL: svc.url, HTTPClient: svc.http, Token: api.StaticToken(svc.sim.Token("admin")),
		Limits: api.Limits{Vault: 100000}}
	if withLedger {
		if p.lst, err = p.ledger.Open(db); err != nil {
			p.jst.Close()
			return nil, err
		}
		cfg.Ledger = p.lst
	}
	client, err := api.New(cfg)
	if err != nil {
		p.close()
		return nil, err
	}
	owner := fmt.Sprintf("process-%d", w.seq)
	p.guard = &guard{inner: client, reader: reader, proc: p}
	p.told = &toldJournal{Store: p.jst}
	p.runner = &Runner{API: p.guard, Store: p.told, Profile: "default", Owner: owner,
		renewEvery: -1, maxBatchFiles: w.per,
		// Every earlier process of the walk is gone (crashed or ended).
		Steal: func(holder string) bool { return holder != owner }}
	p.guard.runner = p.runner
	p.journal.Reset()
	p.ledger.Reset()
	if arm != nil {
		arm(p.journal, p.ledger)
	}
	return p, nil
}

// guard stands between the runner and the service. It checks that every
// request's files are recorded as started in the journal (read by another
// Store, as another process would), that no request follows a failed
// journal write, and it renews the leases while each request is out, as
// the runner's ticker would. A crashed process sends nothing.
type guard struct {
	inner    *api.Client
	reader   *store.Store
	proc     *process
	runner   *Runner
	mu       sync.Mutex
	problems []string
	sent     int // requests that reached the service
}

func (g *guard) problem(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.problems = append(g.problems, fmt.Sprintf(format, args...))
}

var errDead = fmt.Errorf("the process crashed (simulated): %w", api.ErrNotSent)

func (g *guard) UploadBatch(ctx context.Context, projectID string, files []api.UploadFile, mode api.DuplicateMode, sent func(int64)) (*api.UploadResult, error) {
	if g.proc.crashed() {
		return nil, errDead
	}
	if told := g.proc.told.first(); told != "" {
		g.problem("a request of %d file(s) was sent after a journal write returned an error to the job (%s)", len(files), told)
	}
	g.checkRecorded(files)
	res, err := g.inner.UploadBatch(ctx, projectID, files, mode, sent)
	g.mu.Lock()
	g.sent++
	g.mu.Unlock()
	g.runner.renew() // while the request was out
	return res, err
}

func (g *guard) FilesUploadedSince(ctx context.Context, projectID string, since time.Time) ([]api.ProjectFile, error) {
	if g.proc.crashed() {
		return nil, errDead
	}
	if g.proc.lostListing {
		return nil, errors.New("the listing's answer was lost (simulated)")
	}
	return g.inner.FilesUploadedSince(ctx, projectID, since)
}

func (g *guard) GetFiles(ctx context.Context, ids []string) ([]api.Item[api.FileDetail], error) {
	if g.proc.crashed() {
		return nil, errDead
	}
	return g.inner.GetFiles(ctx, ids)
}

// checkRecorded: every file of the request is pending in an unfinished
// batch of the journal whose start (began_at) is recorded.
func (g *guard) checkRecorded(files []api.UploadFile) {
	batches, err := g.reader.UnfinishedBatches("default")
	if err != nil {
		g.problem("the journal could not be read: %v", err)
		return
	}
	started := map[string]bool{}
	for _, b := range batches {
		if b.BeganAt.IsZero() {
			continue
		}
		for _, f := range b.Files {
			if f.State == store.FilePending {
				started[f.Path] = true
			}
		}
	}
	for _, f := range files {
		if !started[f.Path] {
			g.problem("%s was sent without its start recorded in the journal", f.Path)
		}
	}
}

// toldJournal is the journal as the job sees it: it remembers every error
// a write returned to the job, whatever the store did before (a busy store
// that waited and then succeeded told the job nothing).
type toldJournal struct {
	*store.Store
	mu   sync.Mutex
	errs []string
}

func (j *toldJournal) note(op string, err error) error {
	if err != nil {
		j.mu.Lock()
		j.errs = append(j.errs, op+": "+err.Error())
		j.mu.Unlock()
	}
	return err
}

func (j *toldJournal) first() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.errs) == 0 {
		return ""
	}
	return j.errs[0]
}

func (j *toldJournal) RecordRun(r store.UploadRun, refused []store.JournalFile, batches [][]store.JournalFile, l store.Lease) (int64, []store.JournalBatch, error) {
	id, b, err := j.Store.RecordRun(r, refused, batches, l)
	return id, b, j.note("RecordRun", err)
}

func (j *toldJournal) StartBatch(id int64, owner string, began time.Time, files []store.JournalFile) error {
	return j.note("StartBatch", j.Store.StartBatch(id, owner, began, files))
}

func (j *toldJournal) CompleteBatch(id int64, owner string, o []store.FileOutcome, batchErr string) error {
	return j.note("CompleteBatch", j.Store.CompleteBatch(id, owner, o, batchErr))
}

func (j *toldJournal) ClaimBatch(id int64, l store.Lease) error {
	return j.note("ClaimBatch", j.Store.ClaimBatch(id, l))
}

func (j *toldJournal) RenewLeases(owner string, until time.Time) error {
	return j.note("RenewLeases", j.Store.RenewLeases(owner, until))
}

func (j *toldJournal) ReleaseBatch(id int64, owner, batchErr string) error {
	return j.note("ReleaseBatch", j.Store.ReleaseBatch(id, owner, batchErr))
}

func (j *toldJournal) UnstartBatch(id int64, owner string, began time.Time) error {
	return j.note("UnstartBatch", j.Store.UnstartBatch(id, owner, began))
}

func (j *toldJournal) MarkReplaced(ids []string) error {
	return j.note("MarkReplaced", j.Store.MarkReplaced(ids))
}

func (g *guard) ProjectFilesPage(ctx context.Context, projectID string, q api.FileQuery) (*api.FilePage, error) {
	if g.proc.crashed() {
		return nil, errDead
	}
	return g.inner.ProjectFilesPage(ctx, projectID, q)
}
