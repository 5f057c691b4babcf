// Package filestatusview is the "File status" view: a set of file IDs polled
// live with get_files until every file has settled, within the vault budget
// of 10 requests per minute that every other view shares.
package filestatusview

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Options tune the view; the zero value gives the defaults.
type Options struct {
	// StuckAfter is how long a file may sit in a non-terminal status before
	// its row is flagged "stuck". 0 means DefaultStuckAfter (30 minutes).
	StuckAfter time.Duration
	// BaseInterval is the shortest pause between polls; the budget may make
	// it longer. 0 means DefaultBaseInterval (10 seconds).
	BaseInterval time.Duration
	// UploadedAt holds upload times the opener knows (the Files listing,
	// the upload journal), by file ID: a file's age in status then counts
	// from the service's own time, so an old processing file is stuck the
	// moment it is shown. Files not in it fall back to "first seen".
	UploadedAt map[string]time.Time
	// Tick arms the poll timer; nil means tea.Tick. Tests pass one that
	// returns the message at once, so no test waits on a real clock.
	Tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
}

func (o Options) withDefaults() Options {
	if o.StuckAfter <= 0 {
		o.StuckAfter = filestatus.DefaultStuckAfter
	}
	if o.BaseInterval <= 0 {
		o.BaseInterval = filestatus.DefaultBaseInterval
	}
	if o.Tick == nil {
		o.Tick = tea.Tick
	}
	return o
}

// Model is the file-status page.
type Model struct {
	env  page.Env
	id   page.ID
	opts Options

	widgets.TableView // table, size, filter capture, esc, selected and marked IDs

	tr     *filestatus.Tracker
	loader *widgets.Loader

	// Polling state. gen is the poll generation (see tickMsg); inFlight is
	// the guard that keeps two polls from ever running at once.
	gen        uint64
	inFlight   bool
	pollCancel context.CancelFunc // ends the poll in flight (Close)
	stopped    bool               // a fatal error ended polling until the user refreshes
	inactive   bool               // covered by another page: no ticks until Activate
	clock      page.Clock         // 1-second tick while the countdown is on screen (counting)
	closed     bool               // left the stack for good (Close)
	failures   int
	retryAfter time.Duration
	lastErr    error
	lastPoll   time.Time
	nextAt     time.Time
	plan       filestatus.Plan

	// Counts for the header, computed when rows are rebuilt so that View
	// stays independent of the number of files.
	nPending, nChanged, nNotFound int
	stuck                         stuckClock // the stuck count advances with the clock
	// Triage counts as of the last rebuild; stuck and processing split the
	// non-final files at render time (stuck advances with the clock).
	counts   filestatus.Counts
	nonFinal int
	seenOnly bool  // some age is only "since first seen"
	group    group // the triage group shown, or allGroups

	pasting bool
	paste   widgets.Input
	// fromJournal: opened without IDs, the journal's tracked files are
	// being read (the paste input waits for the answer).
	fromJournal bool
	// journalView: opened from the journal; journalFiles: how many files
	// it brought (query.go: its command is status --journal until more
	// are pasted).
	journalView  bool
	journalFiles int
	confirm      *widgets.Confirm    // the re-upload confirmation, when open
	reupload     []store.JournalFile // what the open confirmation would re-upload
	quiet        int                 // polls in a row that changed nothing (backoff)
	wholeIDs     bool                // `i`: the ID column at a UUID's width
	// acrossProjects: the journal's files of every project are shown, with
	// a project column; jcounts are its never-confirmed files per group.
	acrossProjects bool
	jcounts        filestatus.Counts
	jwords         map[string]int
	// given are the upload times the argument carried (ID@EPOCH, from a
	// listing): C says them, as `status` reads them, so both date alike.
	given map[string]time.Time
}

// New returns the view for the IDs in arg ("id1,id2,...", or anything
// ParseIDs accepts). With no IDs it opens the paste input at once.
func New(env page.Env, arg string, opts Options) page.Page {
	ids, times := parseArg(arg)
	m := &Model{
		env:    env,
		id:     env.NewID(),
		opts:   opts.withDefaults(),
		tr:     filestatus.NewTracker(ids, sanitize.Line),
		group:  allGroups,
		loader: widgets.NewLoader(env.Theme),
		given:  times,
	}
	m.TableView = widgets.NewTableView(env.Theme, env.Keys, m.id, m.liveColumns(columns()), headerLines)
	m.paste = widgets.Input{Prompt: "file IDs: ", PromptStyle: env.Theme.Input, CursorStyle: env.Theme.TextCursor,
		Placeholder: "paste IDs separated by commas, spaces or lines"}
	m.tr.SetUploaded(times)
	m.tr.SetUploaded(opts.UploadedAt)
	m.rebuild(env.Clock())
	switch {
	case len(m.tr.Files) == 0 && env.Journal != nil:
		m.fromJournal, m.journalView = true, true
	case len(m.tr.Files) == 0:
		m.openPaste()
	}
	return m
}

// Init starts the first poll, and asks the journal for upload times (or,
// opened without IDs, for the files it still tracks).
func (m *Model) Init() tea.Cmd {
	if st := m.env.Journal; st != nil {
		if m.fromJournal {
			return loadJournal(st, m.env.Cache, m.env.DataProfile(), m.id, true, nil)
		}
		ids := make([]string, len(m.tr.Files))
		for i, f := range m.tr.Files {
			ids[i] = f.ID
		}
		return tea.Batch(m.startPoll(false), loadJournal(st, m.env.Cache, m.env.DataProfile(), m.id, false, ids))
	}
	return m.startPoll(false)
}

// ID implements page.Identified so the root routes ticks and results here.
func (m *Model) ID() page.ID { return m.id }

// Title is the breadcrumb segment.
func (m *Model) Title() string { return "file status" }

// SetSize gives the view its area; the paste input gets the width too.
func (m *Model) SetSize(w, h int) {
	m.TableView.SetSize(w, h)
	m.paste.Width = max(w-12, 1)
	m.fitHeader()
}

// CapturesInput keeps typed keys in the paste input, the confirmation or
// the table filter.
func (m *Model) CapturesInput() bool {
	return m.pasting || m.confirm != nil || m.TableView.CapturesInput()
}

// WantsEsc: esc first closes the paste input or the confirmation, or
// clears the filter.
func (m *Model) WantsEsc() bool { return m.pasting || m.confirm != nil || m.TableView.WantsEsc() }

// Help lists the view's own bindings.
func (m *Model) Help() []key.Binding {
	k := m.env.Keys
	return append(k.Navigation(), k.PasteIDs, k.GroupFilter, k.ToggleIDs, k.Reupload, withHelp(k.Refresh, "poll now"))
}

func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// Update routes messages: the view's own poll messages, keys, and the
// table's asynchronous filter results.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	if t, ok := msg.(page.ClockTick); ok && t.View == m.id {
		return m, m.clock.Tick(m.env, m.id, m.counting())
	}
	p, cmd := m.update(msg)
	m.fitHeader()
	if keep := m.clock.Keep(m.env, m.id, m.counting()); keep != nil {
		cmd = tea.Batch(cmd, keep)
	}
	return p, cmd
}

// counting reports whether the header counts down (to the next poll, or
// to the vault budget's reset): only then does the view tick once a
// second (page.Clock), so the countdowns and the last poll's age move; a
// covered view, or one with nothing to poll and nothing to reset, ticks
// not at all.
func (m *Model) counting() bool {
	if m.inactive || m.closed {
		return false
	}
	if !m.inFlight && !m.stopped && !m.nextAt.IsZero() {
		return true // the next poll's countdown
	}
	// the vault budget's "resets in" counts down too while it is shown
	// (pollParts); it stops once there is nothing left to reset
	if m.env.Backend == nil {
		return false
	}
	b := vaultBudget(m.env.Backend)
	return b.Limit < 1<<20 && b.ResetIn > 0
}

func (m *Model) update(msg tea.Msg) (page.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case tickMsg:
		if msg.View != m.id {
			return m, nil
		}
		return m, m.onTick(msg)
	case pollMsg:
		if msg.View != m.id {
			return m, nil
		}
		return m, m.finishPoll(msg)
	case reuploadRows:
		if msg.View != m.id {
			return m, nil
		}
		return m, m.onReuploadRows(msg)
	case Reuploaded:
		return m, m.onReuploaded(msg)
	case journalMsg:
		if msg.View != m.id {
			return m, nil
		}
		return m, m.onJournal(msg)
	case tea.KeyMsg:
		return m, m.key(msg)
	case widgets.FilterResult:
		return m, m.Table.Update(msg)
	}
	return m, m.loader.Update(msg)
}

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	if m.confirm != nil {
		return m.confirmKey(msg)
	}
	if m.pasting {
		return m.pasteKey(msg)
	}
	if m.Table.Filtering() {
		return m.Table.Update(msg)
	}
	switch {
	case key.Matches(msg, m.env.Keys.PasteIDs):
		m.openPaste()
		return nil
	case key.Matches(msg, m.env.Keys.Refresh):
		return m.startPoll(true)
	case key.Matches(msg, m.env.Keys.Reupload):
		return m.askReupload()
	case key.Matches(msg, m.env.Keys.ToggleIDs):
		shown := m.Table.Shown(colID)
		m.wholeIDs = !m.wholeIDs
		m.Table.SetColumns(m.layout())
		if shown && m.Table.Shown(colID) { // an ID is drawn whole or not at all: the screen has room for it
			if m.wholeIDs {
				return page.Status("i: IDs stay whole at any width (this one has room for them already)")
			}
			return page.Status("i: IDs give way to names on a narrower screen (this one has room for both)")
		}
		return nil
	case key.Matches(msg, m.env.Keys.GroupFilter) && len(msg.Runes) == 1:
		g := group(msg.Runes[0] - '0')
		if g == 0 {
			g = allGroups
		}
		if g == m.group { // the list would not change: say so, or the key seems dead
			if g == allGroups {
				return page.Status("0: all files are shown already")
			}
			return page.Status(fmt.Sprintf("%c: only the %s files are shown already", msg.Runes[0], g))
		}
		m.group = g
		return m.rebuild(m.env.Clock())
	}
	return m.Table.Update(msg)
}

// rebuild recomputes every row and the header counts from the tracker. It
// runs after each poll, not per frame; the clock-dependent cells and the
// stuck count are derived at render time instead (live.go).
func (m *Model) rebuild(now time.Time) tea.Cmd {
	rows := make([]widgets.Row, 0, len(m.tr.Files))
	m.nPending, m.nChanged, m.nNotFound = 0, 0, 0
	m.counts, m.nonFinal, m.seenOnly = filestatus.Counts{}, 0, false
	m.jcounts, m.jwords = filestatus.Counts{}, map[string]int{}
	m.stuck = newStuckClock(m.tr.Files, m.opts.StuckAfter)
	for i := range m.tr.Files {
		f := &m.tr.Files[i]
		changed := m.tr.Changed(f)
		g := f.Group(now, m.opts.StuckAfter)
		if f.Journal != "" {
			m.jcounts[g]++
			m.jwords[f.Journal]++
		} else if f.Seen {
			switch g {
			case filestatus.Processing, filestatus.Stuck:
				m.nonFinal++
			default:
				m.counts[g]++
			}
		}
		m.seenOnly = m.seenOnly || (f.Seen && f.SinceSeen)
		if m.group.shows(g) {
			rows = append(rows, buildRow(f, changed, now, m.opts.StuckAfter))
		}
		switch {
		case !f.Terminal():
			m.nPending++
		case f.NotFound:
			m.nNotFound++
		}
		if changed {
			m.nChanged++
		}
	}
	return m.Table.SetRows(rows)
}

// layout is the table's columns now: IDs whole or not, and the project
// column while the journal's files of every project are shown.
func (m *Model) layout() []widgets.Column {
	cols := columns()
	if m.wholeIDs {
		cols = idColumns()
	}
	if m.acrossProjects {
		cols = projectColumns(cols)
	}
	return m.liveColumns(cols)
}
