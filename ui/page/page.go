// Package page is the contract between the root model (ui/app) and the
// views. A view is a Page; everything it needs from outside arrives in Env;
// everything it asks of the root (navigate, report, copy) is a message.
package page

import (
	"context"
	"io"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// Page is one screen of the console. Implementations are pointer types:
// Update may mutate and return the receiver.
type Page interface {
	Init() tea.Cmd
	Update(tea.Msg) (Page, tea.Cmd)
	View() string
	// SetSize gives the page the body area (the root keeps header and status).
	SetSize(w, h int)
	// Title is the breadcrumb segment ("projects", a project's name).
	Title() string
	// Help lists the page's own bindings; the root adds the global ones.
	Help() []key.Binding
}

// Optional page capabilities. The root checks for them with a type assertion.
type (
	// InputCapturer is a page with a focused text input (filter, dialog):
	// while CapturesInput is true every key but ctrl+c goes to the page, so
	// typing "q" in a filter does not quit.
	InputCapturer interface{ CapturesInput() bool }
	// EscHandler is a page that has something to close on esc (a detail
	// pane, an applied filter) before esc means "back".
	EscHandler interface{ WantsEsc() bool }
	// Selector is a page with a selected record whose ID `y` copies.
	Selector interface{ SelectedID() string }
	// Identified is a page that receives view-scoped messages.
	Identified interface{ ID() ID }
)

// Backend is the part of *api.Client the console uses. Views depend on this
// interface so tests can use fakes; *api.Client satisfies it.
type Backend interface {
	WhoAmI(ctx context.Context) (*api.WhoAmI, error)
	Projects(ctx context.Context, q api.ProjectQuery) (*api.ProjectPage, error)
	ProjectFiles(ctx context.Context, projectID string, q api.FileQuery) (*api.FilePage, error)
	ProjectUsers(ctx context.Context, projectID string) (*api.ProjectUsers, error)
	RecycleBin(ctx context.Context, q api.RecycleBinQuery) (*api.RecycleBin, error)
	GetFiles(ctx context.Context, ids []string) ([]api.FileDetail, error)
	AuditEarliest(ctx context.Context, logType string) (*api.AuditEntry, error)
	AuditAfter(ctx context.Context, from string, take int) ([]api.AuditEntry, error)
	DeleteProject(ctx context.Context, projectID string) (*api.DeleteProjectResult, error)
	Budget(cat api.Category) api.BudgetStatus
	Base() string
}

// Cache keeps response bodies between visits so that a view can show data
// (with its age) without spending the vault budget of 10 requests/minute.
// The lead binds it to the active profile; it may be nil.
type Cache interface {
	Get(key string) (body []byte, fetchedAt time.Time, ok bool)
	Put(key string, body []byte)
}

// Env is everything a view gets from outside. It is passed by value; the
// only shared mutable things behind it are the Backend, the Cache and IDs,
// which are safe for concurrent use.
type Env struct {
	Ctx      context.Context // program lifetime; nil means context.Background()
	Backend  Backend
	Theme    themes.Theme
	Keys     keys.Map
	Now      func() time.Time // nil means time.Now; tests pin it
	ReadOnly bool
	Cache    Cache     // optional
	Output   io.Writer // the program's output, for OSC 52 copies; nil disables `y`
	IDs      *IDs      // view id source; nil is allowed (IDs then all zero)
	// Debounce is the pause after the last keystroke before a server-side
	// filter is sent; 0 means 300ms. Tests set a tiny value.
	Debounce time.Duration
}

// Context returns Ctx or Background.
func (e Env) Context() context.Context {
	if e.Ctx == nil {
		return context.Background()
	}
	return e.Ctx
}

// Clock returns Now or time.Now.
func (e Env) Clock() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// DebounceDelay returns Debounce or its default.
func (e Env) DebounceDelay() time.Duration {
	if e.Debounce <= 0 {
		return 300 * time.Millisecond
	}
	return e.Debounce
}

// NewID allocates an ID for a new view.
func (e Env) NewID() ID {
	if e.IDs == nil {
		return 0
	}
	return e.IDs.Next()
}
