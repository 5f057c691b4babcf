package page

import (
	"context"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"
)

// ID names one view instance, so that a response finds the view that asked
// for it even after the user has navigated elsewhere.
type ID uint64

// IDs hands out view IDs. One per program (root); safe for concurrent use.
type IDs struct{ n atomic.Uint64 }

// Next returns a fresh ID (never 0).
func (s *IDs) Next() ID { return ID(s.n.Add(1)) }

// Navigation and reporting messages, sent by views to the root.
type (
	// Push puts a page on top of the stack.
	Push struct{ Page Page }
	// Pop removes the top page (esc does this too).
	Pop struct{}
	// Open pushes the page of a registered route, e.g. Open{"files", "id1,id2"}.
	// Views use it to reach views they do not import. Record, when set, is
	// what the opener already holds of Arg (a project's row from the list:
	// name, counts), so the page opens without spending requests to look
	// it up; a route that takes no record opens from Arg alone.
	Open struct {
		Route, Arg string
		Record     any
	}
	// StatusMsg shows text (or an error) in the status line. The view's data
	// stays on screen: an error never blanks what was last loaded.
	StatusMsg struct {
		Text string
		Err  error
	}
)

// ProjectDeleted is broadcast after the service accepted a project's
// deletion, so that views further down the stack (the projects list) drop
// the project from what they show without spending a request.
type ProjectDeleted struct{ ID string }

// ProjectInBin is broadcast once a deleted project is in the recycle bin:
// a page about it (its users, its files) shows a project that no longer
// exists and closes itself.
type ProjectInBin struct{ ID string }

// Close asks the root to remove the page with this ID from the stack,
// wherever it is (a page about something that no longer exists), and to
// add Note to the status line, which it keeps (pop would clear it). The
// last page stays.
type Close struct {
	Page ID
	Note string
}

// Scoped is a message for one view; the root delivers it to the page with
// that ID wherever it is in the stack, and drops it when the page is gone.
type Scoped interface{ Target() ID }

// Tag addresses a response: the view, and the request's sequence number so
// the view can drop a response to a request it has superseded (a newer
// filter, a refresh).
type Tag struct {
	View ID
	Seq  uint64
}

// Target implements Scoped.
func (t Tag) Target() ID { return t.View }

// Result carries the outcome of one request started by a view. Kind tells
// requests of the same type apart ("page", "more").
type Result[T any] struct {
	Tag
	Kind  string
	Value T
	Err   error
}

// Fetch runs fn in a tea.Cmd and wraps its outcome in a Result; views never
// do IO in Update.
func Fetch[T any](ctx context.Context, tag Tag, kind string, fn func(context.Context) (T, error)) tea.Cmd {
	return func() tea.Msg {
		v, err := fn(ctx)
		return Result[T]{Tag: tag, Kind: kind, Value: v, Err: err}
	}
}

// Requests numbers a view's requests and owns their contexts; Current
// tells whether a response still matters. The zero value is ready.
//
// A request's context ends when a newer request of the same Requests
// replaces it or when Stop is called (the page closes): a superseded or
// abandoned request spends nothing of the shared vault budget, even while
// it waits for budget.
type Requests struct {
	seq    uint64
	cancel context.CancelFunc
}

// Start begins a request: a fresh tag (earlier tags become stale, their
// contexts are cancelled) and the context to run it with.
func (r *Requests) Start(parent context.Context, view ID) (Tag, context.Context) {
	tag := r.Next(view)
	if parent == nil {
		parent = context.Background()
	}
	var ctx context.Context
	ctx, r.cancel = context.WithCancel(parent)
	return tag, ctx
}

// Next supersedes every earlier request (cancelling its context) and
// returns a fresh tag; use Start when the request needs a context.
func (r *Requests) Next(view ID) Tag {
	r.Stop()
	r.seq++
	return Tag{View: view, Seq: r.seq}
}

// Stop cancels the request in flight, if any; its answer, should one still
// come, is stale.
func (r *Requests) Stop() {
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	r.seq++
}

// Current reports whether t belongs to the latest request.
func (r *Requests) Current(t Tag) bool { return t.Seq == r.seq }

// Cmd helpers so views read well.

// Status returns a command that shows text in the status line.
func Status(text string) tea.Cmd { return func() tea.Msg { return StatusMsg{Text: text} } }

// Error returns a command that shows err in the status line.
func Error(err error) tea.Cmd { return func() tea.Msg { return StatusMsg{Err: err} } }

// OpenRoute returns a command that opens a registered route.
func OpenRoute(route, arg string) tea.Cmd {
	return func() tea.Msg { return Open{Route: route, Arg: arg} }
}

// OpenRecord returns a command that opens a registered route with the
// record the opener holds (Open.Record).
func OpenRecord(route, arg string, record any) tea.Cmd {
	return func() tea.Msg { return Open{Route: route, Arg: arg, Record: record} }
}
