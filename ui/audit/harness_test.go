package audit

import (
	"context"
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

// fakeLog serves an in-memory audit log the way the service does: earliest
// with an optional type filter (404 when none), and pages strictly after an
// ID with no type filter.
type fakeLog struct {
	mu       sync.Mutex
	entries  []api.AuditEntry
	earliest []string // log_type of each AuditEarliest call
	after    []string // from of each AuditAfter call
	err      error    // returned by every call while set
}

func newFakeLog(n int, typeOf func(i int) string) *fakeLog {
	f := &fakeLog{}
	for i := range n {
		f.entries = append(f.entries, entry(i, typeOf(i)))
	}
	return f
}

func (f *fakeLog) AuditEarliest(_ context.Context, logType string) (*api.AuditEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.earliest = append(f.earliest, logType)
	if f.err != nil {
		return nil, f.err
	}
	for i := range f.entries {
		if logType == "" || string(f.entries[i].Type) == logType {
			e := f.entries[i]
			return &e, nil
		}
	}
	return nil, &api.Error{Kind: api.KindNotFound, Status: 404, Message: "No audit logs found"}
}

func (f *fakeLog) AuditAfter(_ context.Context, from string, take int) ([]api.AuditEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after = append(f.after, from)
	if f.err != nil {
		return nil, f.err
	}
	var out []api.AuditEntry
	for _, e := range f.entries {
		if e.ID > from && len(out) < take {
			out = append(out, e)
		}
	}
	return out, nil
}

func (f *fakeLog) calls() (earliest, after int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.earliest), len(f.after)
}

func (f *fakeLog) GetFiles(context.Context, []string) ([]api.FileDetail, error) { return nil, nil }
func (f *fakeLog) Budget(api.Category) api.BudgetStatus {
	return api.BudgetStatus{Limit: 60, Remaining: 60}
}
func (f *fakeLog) WhoAmI(context.Context) (*api.WhoAmI, error) { return nil, nil }
func (f *fakeLog) Projects(context.Context, api.ProjectQuery) (*api.ProjectPage, error) {
	return nil, nil
}
func (f *fakeLog) ProjectFiles(context.Context, string, api.FileQuery) (*api.FilePage, error) {
	return nil, nil
}
func (f *fakeLog) ProjectUsers(context.Context, string) (*api.ProjectUsers, error) { return nil, nil }
func (f *fakeLog) RecycleBin(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) {
	return nil, nil
}
func (f *fakeLog) DeleteProject(context.Context, string) (*api.DeleteProjectResult, error) {
	return nil, nil
}
func (f *fakeLog) Base() string { return "https://fake.invalid" }

// testTheme renders with the ASCII profile, so any ESC byte in a view is a leak.
func testTheme(tb testing.TB) themes.Theme { return pagetest.Theme(tb) }

type rig struct {
	m    *Model
	stat []page.StatusMsg
}

func newRig(tb testing.TB, b page.Backend, arg string) *rig {
	env := page.Env{Backend: b, Theme: testTheme(tb), Keys: keys.New(false),
		Now: func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) }, IDs: &page.IDs{}}
	r := &rig{m: New(env, arg).(*Model)}
	r.m.SetSize(100, 30)
	return r
}

// run executes cmd with the one test driver and keeps the status lines.
func (r *rig) run(cmd tea.Cmd) {
	_, out := pagetest.Drive(r.m, cmd)
	for _, msg := range out {
		if st, ok := msg.(page.StatusMsg); ok {
			r.stat = append(r.stat, st)
		}
	}
}

func (r *rig) key(msg tea.KeyMsg) {
	_, cmd := r.m.Update(msg)
	r.run(cmd)
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
