package filestatusview

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// fakeBackend answers GetFiles from a status table and counts calls. The
// other Backend methods are unused by this view.
type fakeBackend struct {
	pagetest.Fake // the methods this view never calls (the audit reads)
	mu            sync.Mutex
	status        map[string]string // id -> processing_status; absent -> not_found
	names         map[string]string
	calls         [][]string
	err           error // returned by the next GetFiles call, then cleared
	budget        api.BudgetStatus
	consumes      bool // each call takes one request from budget.Remaining
}

func newFake() *fakeBackend {
	return &fakeBackend{status: map[string]string{}, names: map[string]string{},
		budget: api.BudgetStatus{Limit: 10, Remaining: 10}}
}

func (f *fakeBackend) set(status string, ids ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range ids {
		f.status[id] = status
	}
}

func (f *fakeBackend) GetMetadata(context.Context, string) (*api.ProjectMetadata, error) {
	return nil, errors.New("not in this fake")
}

func (f *fakeBackend) GetFiles(_ context.Context, ids []string) ([]api.Item[api.FileDetail], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, append([]string(nil), ids...))
	if f.consumes {
		f.budget.Remaining = max(0, f.budget.Remaining-1)
	}
	if err := f.err; err != nil {
		f.err = nil
		return nil, err
	}
	out := make([]api.FileDetail, 0, len(ids))
	for _, id := range ids {
		st, ok := f.status[id]
		if !ok {
			out = append(out, api.FileDetail{FileID: id, Error: "not_found"})
			continue
		}
		name := f.names[id]
		if name == "" {
			name = id + ".pdf"
		}
		out = append(out, api.FileDetail{FileID: id, FileName: name, ProcessingStatus: api.Status(st)})
	}
	return pagetest.ItemsOf(out), nil
}

func (f *fakeBackend) Budget(api.Category) api.BudgetStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.budget
}

func (f *fakeBackend) setBudget(b api.BudgetStatus) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.budget = b
}

func (f *fakeBackend) nCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func (f *fakeBackend) WhoAmI(context.Context) (*api.WhoAmI, error) { return nil, nil }
func (f *fakeBackend) ProjectsPage(context.Context, api.ProjectQuery) (*api.ProjectPage, error) {
	return nil, nil
}
func (f *fakeBackend) ProjectFilesPage(context.Context, string, api.FileQuery) (*api.FilePage, error) {
	return nil, nil
}
func (f *fakeBackend) ProjectUsers(string) api.Listing[api.ProjectUser] {
	return api.Collected(func(context.Context) ([]api.ProjectUser, api.Summary, error) { return nil, api.Summary{}, nil })
}
func (f *fakeBackend) RecycleBin(api.RecycleBinQuery) api.Listing[api.RecycleBinEntry] {
	return api.Collected(func(context.Context) ([]api.RecycleBinEntry, api.Summary, error) { return nil, api.Summary{}, nil })
}
func (f *fakeBackend) DeleteProject(context.Context, string) (*api.DeleteProjectResult, error) {
	return nil, nil
}
func (f *fakeBackend) Base() string { return "https://fake.invalid" }

// testTheme renders with the ASCII profile, so any ESC byte in a view is a leak.
func testTheme(tb testing.TB) themes.Theme { return pagetest.Theme(tb) }

// rig is a view under test with a pinned clock. Ticks are recorded, not
// slept on: the test decides when a tick is delivered.
type rig struct {
	tb    testing.TB
	m     *Model
	fake  *fakeBackend
	now   time.Time
	waits []time.Duration // every tick armed, in order
	ticks []tickMsg       // tick messages produced and not yet delivered
	stat  []page.StatusMsg
	tasks []page.StartTask // tasks handed to the root, not run
}

func newRig(tb testing.TB, fake *fakeBackend, arg string, opts Options) *rig {
	return newRigWith(tb, fake, fake, arg, opts)
}

type pageEnv = page.Env

// newRigEnv is newRig with the env adjusted (a journal, say) before New.
func newRigEnv(tb testing.TB, fake *fakeBackend, arg string, opts Options, adjust func(*page.Env)) *rig {
	return newRigFull(tb, fake, fake, arg, opts, adjust)
}

// newRigWith builds a rig over any backend (the real client in sim tests).
func newRigWith(tb testing.TB, b page.Backend, fake *fakeBackend, arg string, opts Options) *rig {
	return newRigFull(tb, b, fake, arg, opts, nil)
}

func newRigFull(tb testing.TB, b page.Backend, fake *fakeBackend, arg string, opts Options, adjust func(*page.Env)) *rig {
	r := &rig{tb: tb, fake: fake, now: t0}
	opts.Tick = func(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
		r.waits = append(r.waits, d)
		return func() tea.Msg { return fn(r.now.Add(d)) }
	}
	env := page.Env{Backend: b, Theme: testTheme(tb), Keys: keys.New(false),
		Now: func() time.Time { return r.now }, IDs: &page.IDs{}, ClockEvery: time.Millisecond}
	if adjust != nil {
		adjust(&env)
	}
	r.m = New(env, arg, opts).(*Model)
	r.m.SetSize(120, 30)
	return r
}

// run executes cmd and everything it leads to with the one test driver:
// poll results are fed back into the view; the view's ticks are kept for
// deliver (with the rig's clock); status lines and tasks are collected.
func (r *rig) run(cmd tea.Cmd) {
	_, out := pagetest.Drive(r.m, cmd, func(msg tea.Msg) bool {
		t, ok := msg.(tickMsg)
		if ok {
			r.ticks = append(r.ticks, t)
		}
		return ok
	})
	for _, msg := range out {
		switch msg := msg.(type) {
		case page.StatusMsg:
			r.stat = append(r.stat, msg)
		case page.StartTask:
			r.tasks = append(r.tasks, msg)
		}
	}
}

// deliver hands the oldest pending tick to the view, advancing the clock
// to its due time.
func (r *rig) deliver() {
	r.tb.Helper()
	if len(r.ticks) == 0 {
		r.tb.Fatal("no tick armed")
	}
	tk := r.ticks[0]
	r.ticks = r.ticks[1:]
	if len(r.waits) > 0 {
		r.now = r.now.Add(r.waits[len(r.waits)-1])
	}
	_, cmd := r.m.Update(tk)
	r.run(cmd)
}

func (r *rig) key(msg tea.KeyMsg) {
	_, cmd := r.m.Update(msg)
	r.run(cmd)
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
