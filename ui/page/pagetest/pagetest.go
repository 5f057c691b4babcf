// Package pagetest helps test views without a terminal or a server: a fake
// Backend with per-method functions, an Env with an ASCII theme and a pinned
// clock, and a driver that runs returned commands synchronously.
package pagetest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// Now is the pinned clock of test environments.
var Now = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// ErrNotStubbed is returned by Fake methods without a function.
var ErrNotStubbed = errors.New("pagetest: method not stubbed")

// Fake is a page.Backend whose methods call the matching function field.
// Calls counts calls per method name (safe for concurrent use).
type Fake struct {
	WhoAmIFn        func(context.Context) (*api.WhoAmI, error)
	ProjectsFn      func(context.Context, api.ProjectQuery) (*api.ProjectPage, error)
	ProjectFilesFn  func(context.Context, string, api.FileQuery) (*api.FilePage, error)
	ProjectUsersFn  func(context.Context, string) (*api.ProjectUsers, error)
	RecycleBinFn    func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error)
	GetFilesFn      func(context.Context, []string) ([]api.FileDetail, error)
	GetMetadataFn   func(context.Context, string) (*api.ProjectMetadata, error)
	AuditItemFn     func(ctx context.Context, which string, t time.Time, logType string) (*api.Item[api.AuditEntry], error) // which: earliest, latest, search
	AuditPageFn     func(ctx context.Context, from string, take int, logType string) (api.AuditPage, error)
	DeleteProjectFn func(context.Context, string) (*api.DeleteProjectResult, error)
	BudgetStatus    api.BudgetStatus

	mu    sync.Mutex
	calls map[string]int
}

func (f *Fake) count(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[name]++
}

// Calls returns how often a method was called.
func (f *Fake) Calls(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[name]
}

func call[T any](f *Fake, name string, fn func() (T, error), set bool) (T, error) {
	f.count(name)
	if !set {
		var zero T
		return zero, ErrNotStubbed
	}
	return fn()
}

// kept plays the HTTP client's part for a request that asked for its body
// (page.KeepBody): the fake's answer, encoded, is offered as the body.
func kept[T any](ctx context.Context, v T, err error) (T, error) {
	if err == nil {
		if body, jerr := json.Marshal(v); jerr == nil {
			api.OfferBody(ctx, body)
		}
	}
	return v, err
}

func (f *Fake) WhoAmI(ctx context.Context) (*api.WhoAmI, error) {
	return call(f, "WhoAmI", func() (*api.WhoAmI, error) { return f.WhoAmIFn(ctx) }, f.WhoAmIFn != nil)
}
func (f *Fake) ProjectsPage(ctx context.Context, q api.ProjectQuery) (*api.ProjectPage, error) {
	v, err := call(f, "Projects", func() (*api.ProjectPage, error) { return f.ProjectsFn(ctx, q) }, f.ProjectsFn != nil)
	return kept(ctx, v, err)
}
func (f *Fake) ProjectFilesPage(ctx context.Context, id string, q api.FileQuery) (*api.FilePage, error) {
	return call(f, "ProjectFiles", func() (*api.FilePage, error) { return f.ProjectFilesFn(ctx, id, q) }, f.ProjectFilesFn != nil)
}
func (f *Fake) ProjectUsers(id string) api.Listing[api.ProjectUser] {
	return api.Collected(func(ctx context.Context) ([]api.ProjectUser, api.Summary, error) {
		u, err := call(f, "ProjectUsers", func() (*api.ProjectUsers, error) { return f.ProjectUsersFn(ctx, id) }, f.ProjectUsersFn != nil)
		if err != nil {
			return nil, api.Summary{}, err
		}
		return u.Data.Users, api.Summary{}, nil
	})
}
func (f *Fake) RecycleBin(q api.RecycleBinQuery) api.Listing[api.RecycleBinEntry] {
	return api.Collected(func(ctx context.Context) ([]api.RecycleBinEntry, api.Summary, error) {
		v, err := call(f, "RecycleBin", func() (*api.RecycleBin, error) { return f.RecycleBinFn(ctx, q) }, f.RecycleBinFn != nil)
		if v, err = kept(ctx, v, err); err != nil {
			return nil, api.Summary{}, err
		}
		return v.Items, api.Summary{Total: v.Total, HasTotal: true}, nil
	})
}
func (f *Fake) GetFiles(ctx context.Context, ids []string) ([]api.Item[api.FileDetail], error) {
	d, err := call(f, "GetFiles", func() ([]api.FileDetail, error) { return f.GetFilesFn(ctx, ids) }, f.GetFilesFn != nil)
	return ItemsOf(d), err
}

func (f *Fake) GetMetadata(ctx context.Context, id string) (*api.ProjectMetadata, error) {
	return call(f, "GetMetadata", func() (*api.ProjectMetadata, error) { return f.GetMetadataFn(ctx, id) }, f.GetMetadataFn != nil)
}

// ItemsOf is records as a fake's service answers them, each beside its
// encoding.
func ItemsOf[T any](records []T) []api.Item[T] {
	out := make([]api.Item[T], len(records))
	for i := range records {
		out[i].Value = records[i]
		out[i].JSON, _ = json.Marshal(&records[i])
	}
	return out
}
func (f *Fake) AuditEarliest(ctx context.Context, t string) (*api.Item[api.AuditEntry], error) {
	return call(f, "AuditEarliest", func() (*api.Item[api.AuditEntry], error) { return f.AuditItemFn(ctx, "earliest", time.Time{}, t) }, f.AuditItemFn != nil)
}
func (f *Fake) AuditLatest(ctx context.Context, t string) (*api.Item[api.AuditEntry], error) {
	return call(f, "AuditLatest", func() (*api.Item[api.AuditEntry], error) { return f.AuditItemFn(ctx, "latest", time.Time{}, t) }, f.AuditItemFn != nil)
}
func (f *Fake) AuditSearch(ctx context.Context, at time.Time, t string) (*api.Item[api.AuditEntry], error) {
	return call(f, "AuditSearch", func() (*api.Item[api.AuditEntry], error) { return f.AuditItemFn(ctx, "search", at, t) }, f.AuditItemFn != nil)
}
func (f *Fake) AuditPage(ctx context.Context, from string, take int, t string) (api.AuditPage, error) {
	return call(f, "AuditPage", func() (api.AuditPage, error) { return f.AuditPageFn(ctx, from, take, t) }, f.AuditPageFn != nil)
}
func (f *Fake) DeleteProject(ctx context.Context, id string) (*api.DeleteProjectResult, error) {
	return call(f, "DeleteProject", func() (*api.DeleteProjectResult, error) { return f.DeleteProjectFn(ctx, id) }, f.DeleteProjectFn != nil)
}
func (f *Fake) Budget(api.Category) api.BudgetStatus { return f.BudgetStatus }
func (f *Fake) Base() string                         { return "https://api.example.test" }

// Theme returns the dark theme on an ASCII renderer: no escape codes, so
// views compare as plain text.
func Theme(tb testing.TB) themes.Theme {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	th, err := themes.New(r, "dark", false)
	if err != nil {
		tb.Fatal(err)
	}
	return th
}

// Env returns an environment over be with a pinned clock.
func Env(tb testing.TB, be page.Backend, readOnly bool) page.Env {
	return page.Env{Backend: be, Theme: Theme(tb), Keys: keys.New(readOnly), Now: func() time.Time { return Now },
		ReadOnly: readOnly, IDs: &page.IDs{}, Debounce: time.Millisecond, ClockEvery: time.Millisecond}
}

// MapCache is an in-memory page.Cache stamping entries with Now.
type MapCache struct {
	mu sync.Mutex
	m  map[string][]byte
	At time.Time
}

func (c *MapCache) Get(k string) ([]byte, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[k]
	return b, c.At, ok
}

// Delete implements page.Cache.
func (c *MapCache) Delete(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}

func (c *MapCache) Put(k string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string][]byte{}
	}
	c.m[k] = b
}

// Drive runs cmd and feeds every resulting message back into p until no
// command is left. Spinner ticks are dropped (they would loop while loading)
// and messages meant for the root (Push, Open, StatusMsg...) are collected.
//
// Hooks see every message first; one that returns true has taken it (a
// view's own timer tick that the test delivers later, with its clock).
func Drive(p page.Page, cmd tea.Cmd, hooks ...func(tea.Msg) bool) (page.Page, []tea.Msg) {
	p, out, _ := drive(p, cmd, hooks)
	return p, out
}

// DriveTimed is Drive that also reports the longest single Update: the
// event loop is blocked that long (goal: one frame, 16 ms).
func DriveTimed(p page.Page, cmd tea.Cmd) (page.Page, []tea.Msg, time.Duration) {
	return drive(p, cmd, nil)
}

func drive(p page.Page, cmd tea.Cmd, hooks []func(tea.Msg) bool) (page.Page, []tea.Msg, time.Duration) {
	var out []tea.Msg
	var longest time.Duration
	queue := []tea.Cmd{cmd}
next:
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		for _, h := range hooks {
			if h(msg) {
				continue next
			}
		}
		switch msg := msg.(type) {
		case nil, spinner.TickMsg, page.ClockTick:
			continue // ticks re-arm while something is shown; a synchronous driver stops them
		case tea.BatchMsg:
			queue = append(queue, msg...)
			continue
		case page.Push, page.Pop, page.Open, page.StatusMsg, page.ProjectDeleted, page.StartTask, tea.QuitMsg:
			out = append(out, msg)
			continue
		}
		var next tea.Cmd
		start := time.Now()
		p, next = p.Update(msg)
		longest = max(longest, time.Since(start))
		queue = append(queue, next)
	}
	return p, out, longest
}

// Key returns the KeyMsg for a key name ("down", "enter", "esc", "tab",
// "shift+tab") or for the runes of s.
func Key(s string) tea.KeyMsg {
	switch s {
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// Press sends a key and drives its commands.
func Press(p page.Page, k string) (page.Page, []tea.Msg) {
	p, cmd := p.Update(Key(k))
	return Drive(p, cmd)
}

// Type sends each rune of s as its own key press.
func Type(p page.Page, s string) (page.Page, []tea.Msg) {
	var all []tea.Msg
	for _, r := range s {
		var out []tea.Msg
		p, out = Press(p, string(r))
		all = append(all, out...)
	}
	return p, all
}

// Started are the tasks cmd starts, for RunTasks: its StartTask messages,
// batches opened; anything else (a progress tick, which a synchronous
// driver would follow for ever) is run once and dropped.
func Started(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	var out []tea.Msg
	switch msg := cmd().(type) {
	case page.StartTask:
		out = append(out, msg)
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, Started(c)...)
		}
	}
	return out
}

// RunTasks plays the root's part for the page.StartTask messages in out:
// it runs each task (not its follow-ups), delivers the TaskDone and the
// outcome's broadcast to p, and returns what the tasks finished with.
func RunTasks(p page.Page, out []tea.Msg) (page.Page, []page.TaskDone) {
	var done []page.TaskDone
	for _, msg := range out {
		st, ok := msg.(page.StartTask)
		if !ok {
			continue
		}
		o, err := st.Run(context.Background(), func(string) {})
		d := page.TaskDone{ID: page.TaskID(len(done) + 1), Origin: st.Origin, Name: st.Name, Outcome: o, Err: err}
		done = append(done, d)
		p, _ = Drive(p, func() tea.Msg { return d })
		if o.Broadcast != nil {
			p, _ = Drive(p, func() tea.Msg { return o.Broadcast })
		}
	}
	return p, done
}

// WithJobs hands env the write jobs j as the console does: only when the
// session may write (keys.Session.RunsJobs), with the keys that start them.
func WithJobs(env page.Env, j page.Jobs) page.Env {
	s := keys.Session{ReadOnly: env.ReadOnly, Jobs: true}
	env.Keys = keys.NewSession(s)
	if s.RunsJobs() {
		env.Jobs = &j
	}
	return env
}
