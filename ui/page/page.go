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
	"github.com/vaultdeck/vaultdeck/api/access/change"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
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
	// KeyHinter is a page whose keys depend on its state (a tab, the
	// selected row, a mode, an open input): ContextKeys lists the bindings
	// of the key map that act now, most useful first, for the footer's
	// context line. Without it the footer uses Help.
	KeyHinter interface{ ContextKeys() []key.Binding }
	// Selector is a page with a selected record whose ID `y` copies.
	Selector interface{ SelectedID() string }
	// Documenter is a page showing one record that may be larger than it
	// draws (the audit entry's detail, bounded): while Document reports
	// true, `y` copies the record whole rather than its ID and `e` saves
	// it rather than the table under it.
	Documenter interface{ Document() (Document, bool) }
	// Identified is a page that receives view-scoped messages.
	Identified interface{ ID() ID }
	// Activatable is a page with background work (polling) that should
	// run only while the user can see it: the vault budget of 10
	// requests/minute is shared, and a covered view polling away would
	// starve the view on top. The root calls Deactivate when another page
	// covers this one and Activate when it is on top again (not on the
	// first push: Init starts the work). Activate may return a command,
	// e.g. an immediate poll when one fell due while covered.
	// Closer is a page with requests in flight to abandon when it leaves
	// the stack for good (esc, or a :view replacing the stack): the root
	// calls Close, and the page cancels their contexts.
	Closer      interface{ Close() }
	Activatable interface {
		Activate() tea.Cmd
		Deactivate()
	}
)

// Document is one record whole, as `y` copies and `e` saves it.
type Document struct {
	What string // for the status line: "entry 01J…"
	Stem string // the saved file's name part: "audit-entry"
	Ext  string // the saved file's extension: "json"
	Body []byte
}

// Backend is the part of *api.Client the console uses. Views depend on this
// interface so tests can use fakes; *api.Client satisfies it.
type Backend interface {
	WhoAmI(ctx context.Context) (*api.WhoAmI, error)
	ProjectsPage(ctx context.Context, q api.ProjectQuery) (*api.ProjectPage, error)
	ProjectFilesPage(ctx context.Context, projectID string, q api.FileQuery) (*api.FilePage, error)
	ProjectUsers(projectID string) api.Listing[api.ProjectUser]
	// RecycleBin's collected answer may be shared with other sessions
	// (serve's api.SharedClient hands one answer to every session on a
	// token): read it, never modify it.
	RecycleBin(q api.RecycleBinQuery) api.Listing[api.RecycleBinEntry]
	GetFiles(ctx context.Context, ids []string) ([]api.Item[api.FileDetail], error)
	// GetMetadata is a project's use of its limits (the project view's head).
	GetMetadata(ctx context.Context, projectID string) (*api.ProjectMetadata, error)
	// The audit job's reads (api/audit.Service): the console's audit view
	// reads the log newest first and jumps to a time through them.
	AuditEarliest(ctx context.Context, logType string) (*api.Item[api.AuditEntry], error)
	AuditLatest(ctx context.Context, logType string) (*api.Item[api.AuditEntry], error)
	AuditSearch(ctx context.Context, t time.Time, logType string) (*api.Item[api.AuditEntry], error)
	AuditPage(ctx context.Context, from string, take int, logType string) (api.AuditPage, error)
	DeleteProject(ctx context.Context, projectID string) (*api.DeleteProjectResult, error)
	Budget(cat api.Category) api.BudgetStatus
	Base() string
}

// Jobs are the write jobs a session is handed: the services that the
// upload job (api/upload) and the matter job (api/matters) send through.
// A view that runs one takes it from here, never by asking the Backend what
// else it is: the console hands them over only to a session that may write
// (keys.Session.RunsJobs), and binds their keys only then, so a read-only
// or serve session neither offers an upload nor can start one.
type Jobs struct {
	Upload  upload.Backend
	Matters matters.Service
	// Files deletes files (a project's Files tab, an upload's undo): the
	// delete_file write job's service.
	Files deletefile.Service
	// Access changes who reaches a project (the "access" write job,
	// api/access/change): :person's reach rows, a project's Users tab.
	Access change.API
}

// Cache keeps response bodies between visits so that a view can show data
// (with its age) without spending the vault budget of 10 requests/minute.
// It is bound to one profile where the console is assembled (ui/console),
// so one profile's listings never show under another; nil means nothing is
// cached (no database). Delete is part of the contract, not found by
// asking: views call Forget after a change on the server (a project
// deleted) makes a cached list wrong, and a cache that silently kept it
// would show the deleted project for as long as the entry lives.
type Cache interface {
	Get(key string) (body []byte, fetchedAt time.Time, ok bool)
	Put(key string, body []byte)
	Delete(key string)
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
	// filter is sent without enter; 0 means 1.5s (long: every filter sent
	// spends one of 10 vault requests a minute). Tests set a tiny value.
	Debounce time.Duration
	// TaskPoll is how often a task checks whether the service has finished
	// what it accepted (a deleted project reaching the recycle bin); 0
	// means 5s. Tests set a tiny value.
	TaskPoll time.Duration
	// ClockEvery is the period of the tick that refreshes time-based text
	// (ages, countdowns); 0 means 1s. Tests set a tiny value.
	ClockEvery time.Duration
	// Journal is the upload journal, kept for Conn.DataProfile (optional:
	// without it there is no upload, re-upload or :files from the journal).
	Journal *store.Store
	// Conn is the one connection value (profile, endpoint, workspace);
	// nil in tests that need none.
	Conn *account.Conn
	// Jobs are the write jobs the session may run; nil: none (read-only,
	// serve), and Keys then binds none of their keys.
	Jobs *Jobs
	// Chores are the local jobs (audit sync, access crawl) the console
	// runs itself; nil: hints give the shell command (chores.go).
	Chores *Chores
}

// DataProfile is the profile the journal keeps this connection's data
// under; "" without a connection.
func (e Env) DataProfile() string {
	if e.Conn == nil {
		return ""
	}
	return e.Conn.DataProfile
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
		return 1500 * time.Millisecond
	}
	return e.Debounce
}

// TaskPollInterval returns TaskPoll or its default.
func (e Env) TaskPollInterval() time.Duration {
	if e.TaskPoll <= 0 {
		return 5 * time.Second
	}
	return e.TaskPoll
}

// NewID allocates an ID for a new view.
func (e Env) NewID() ID {
	if e.IDs == nil {
		return 0
	}
	return e.IDs.Next()
}
