package auditview

import (
	"context"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// whoMsg is whoami's answer: the mirror's key and the token's user.
type whoMsg struct{ log, self string }

// windowMsg is a read of entries. How says what it was: "newest" and
// "oldest" and "jump" replace what is shown, "older" adds below, "newer"
// above.
type windowMsg struct {
	how     string
	entries []store.AuditEntry // newest first
	land    int                // for "jump": the row of the first entry at or after the time
	edge    bool               // older: the start was reached; newer: the newest was reached
	mirror  bool               // answered by the mirror with no request
	reqs    int
	walk    *audit.Walk // the walk the window came from, to read on below it
	counted bool        // newest: a saved --limit's rows, read to their count (count.go)
}

// syncMsg is a finished background sync of the mirror.
type syncMsg struct {
	state store.AuditMirrorState
}

func (m *Model) start() tea.Cmd {
	tag, ctx := m.req.Start(m.env.Context(), m.id)
	b := m.env.Backend
	m.loading = "who"
	return tea.Batch(m.loader.Start(), page.Fetch(ctx, tag, "who", func(ctx context.Context) (whoMsg, error) {
		log, w, err := audit.LogOf(ctx, b)
		if err != nil {
			return whoMsg{}, err
		}
		return whoMsg{log: log, self: w.Email}, nil
	}))
}

func (m *Model) gotWho(msg page.Result[whoMsg]) tea.Cmd {
	if msg.View != m.id || !m.req.Current(msg.Tag) {
		return nil
	}
	if msg.Err != nil {
		m.loader.Done()
		m.loading = ""
		return m.failed(msg.Err)
	}
	m.log, m.self = msg.Value.log, msg.Value.self
	var cmd tea.Cmd
	if !m.initial.Until.IsZero() {
		cmd = m.span(m.initial.At, m.initial.Until)
	} else if !m.initial.At.IsZero() {
		cmd = m.jump(m.initial.At)
	} else {
		cmd = m.newestCounted(m.count) // a saved --limit N lands on its N rows (count.go)
	}
	return cmd
}

// sync brings the mirror up to date in the background, paced inside the
// audit budget by the job; without a store there is no mirror.
func (m *Model) sync() tea.Cmd {
	if m.job.Mirror == nil || m.syncing {
		return nil
	}
	m.syncing = true
	tag, ctx := m.side.Start(m.env.Context(), m.id)
	j := m.syncJob
	return tea.Batch(page.Fetch(ctx, tag, "sync", func(ctx context.Context) (syncMsg, error) {
		r, err := j.Sync(ctx)
		return syncMsg{state: r.State}, err
	}), m.clock.Keep(m.env, m.id, true))
}

func (m *Model) gotSync(msg page.Result[syncMsg]) tea.Cmd {
	if msg.View != m.id || !m.side.Current(msg.Tag) {
		return nil
	}
	m.syncing = false
	if msg.Err != nil {
		return page.Status("the audit mirror could not sync: " + msg.Err.Error())
	}
	m.mirror, m.synced = msg.Value.state, true
	return nil
}

// read starts a read of entries; a newer read supersedes it.
func (m *Model) read(how string, fn func(ctx context.Context) (windowMsg, error)) tea.Cmd {
	tag, ctx := m.req.Start(m.env.Context(), m.id)
	ctx = m.watchRead(ctx, how)
	m.loading = how
	m.loader.Reset()
	return tea.Batch(m.loader.Start(), page.Fetch(ctx, tag, how, fn))
}

// newest lands on the newest entries: the mirror's when it is synced (no
// request for a filter), the service's otherwise.
func (m *Model) newest() tea.Cmd { return m.newestCounted(noCount) }

// newestCounted lands on the newest entries: one window, or (count 0 or
// more) as many as hold count rows shown, a saved --limit's (count.go).
func (m *Model) newestCounted(count int) tea.Cmd {
	j, f, log := m.job, m.filter, m.log
	useMirror := m.synced
	self, showOwn := m.self, m.showOwn
	shown := func(e store.AuditEntry) bool { return showOwn || !audit.IsOwnRead(e, self) }
	return m.read("newest", func(ctx context.Context) (windowMsg, error) {
		var w audit.Window
		var err error
		var walk *audit.Walk
		if useMirror {
			w, err = audit.MirrorWindow(ctx, j.Mirror, log, f, store.AuditPosition{}, windowSize)
		} else {
			walk = j.NewestWalk(f)
			w, err = walk.Next(ctx, windowSize)
		}
		if err == nil && count != noCount {
			w, err = countedWindow(ctx, w, count, shown, func(ctx context.Context, below store.AuditEntry) (audit.Window, error) {
				if useMirror {
					return audit.MirrorWindow(ctx, j.Mirror, log, f, below.At(), windowSize)
				}
				return walk.Next(ctx, windowSize)
			})
		}
		return windowMsg{how: "newest", entries: w.Entries, edge: w.Start, mirror: w.Mirror, reqs: w.Requests, walk: walk, counted: count != noCount}, err
	})
}

// older reads the window below the last entry shown.
func (m *Model) older() tea.Cmd {
	if m.atStart || m.loading != "" || len(m.entries) == 0 {
		return nil
	}
	j, f, last, log := m.job, m.filter, m.entries[len(m.entries)-1], m.log
	from := last.At()
	useMirror := m.synced && from.Seq != 0 // an entry of the mirror: all before it is there
	// the walk the bottom row came from reads on where it stands; else
	// one starts below the entry itself, not its time: the entries of its
	// instant not shown yet are not skipped (the CLI's walk too)
	walk := m.walk
	if useMirror {
		walk = nil
	} else if !walk.Continues(last) {
		walk = j.WalkBelow(f, last)
	}
	m.walk = nil // the read holds it until its answer
	return m.read("older", func(ctx context.Context) (windowMsg, error) {
		var w audit.Window
		var err error
		if useMirror {
			w, err = audit.MirrorWindow(ctx, j.Mirror, log, f, from, windowSize)
		} else {
			w, err = walk.Next(ctx, windowSize)
		}
		return windowMsg{how: "older", entries: w.Entries, edge: w.Start, mirror: w.Mirror, reqs: w.Requests, walk: walk}, err
	})
}

// newer reads the window above the first entry shown, when the top is
// not the newest (after g or a jump).
func (m *Model) newer() tea.Cmd {
	if m.atNewest || m.loading != "" || len(m.entries) == 0 {
		return nil
	}
	j, f, top := m.job, m.filter, m.entries[0]
	return m.read("newer", func(ctx context.Context) (windowMsg, error) {
		q := f
		q.Since, q.After, q.Limit = top.Time, top.At(), windowSize+1
		var got []store.AuditEntry
		a, err := j.Query(ctx, q, func(e store.AuditEntry) error {
			if e.ID != top.ID {
				got = append(got, e)
			}
			return nil
		})
		slices.Reverse(got)
		return windowMsg{how: "newer", entries: got, edge: a.Delivered < q.Limit, mirror: a.Mirror && !a.Service, reqs: a.Requests}, err
	})
}

// oldest lands on the log's first entries (g).
func (m *Model) oldest() tea.Cmd {
	j, f := m.job, m.filter
	return m.read("oldest", func(ctx context.Context) (windowMsg, error) {
		q := f
		q.Limit = windowSize
		var got []store.AuditEntry
		a, err := j.Query(ctx, q, func(e store.AuditEntry) error { got = append(got, e); return nil })
		slices.Reverse(got)
		return windowMsg{how: "oldest", entries: got, edge: a.Delivered < windowSize, mirror: a.Mirror && !a.Service, reqs: a.Requests}, err
	})
}

// jump lands on t: the entries from t on above (oldest of them selected),
// the ones before it below.
func (m *Model) jump(t time.Time) tea.Cmd {
	j, f := m.job, m.filter
	m.following, m.jumpTo = false, t
	half := windowSize / 2
	return m.read("jump", func(ctx context.Context) (windowMsg, error) {
		q := f
		q.Since, q.Limit = t, half
		var after []store.AuditEntry
		a, err := j.Query(ctx, q, func(e store.AuditEntry) error { after = append(after, e); return nil })
		if err != nil {
			return windowMsg{}, err
		}
		w, err := j.Older(ctx, f, store.AuditPosition{Time: t}, half)
		if err != nil {
			return windowMsg{}, err
		}
		slices.Reverse(after)
		return windowMsg{how: "jump", entries: append(after, w.Entries...), land: max(len(after)-1, 0),
			edge: a.Delivered < half, mirror: a.Mirror && !a.Service && w.Mirror, reqs: a.Requests + w.Requests}, nil
	})
}

func (m *Model) gotWindow(msg page.Result[windowMsg]) tea.Cmd {
	if msg.View != m.id || !m.req.Current(msg.Tag) {
		return nil
	}
	m.loader.Done()
	m.loading, m.watch = "", nil
	if msg.Err != nil {
		return m.failed(msg.Err)
	}
	m.lastErr = nil
	w := msg.Value
	if w.how != "newer" {
		m.walk = w.walk // the bottom row is this window's (newer adds at the top)
	}
	// The mirror syncs after the first landing, not beside it: the two
	// would share the audit budget, and the landing is what the user waits for.
	var syncCmd tea.Cmd
	if !m.synced {
		syncCmd = m.sync()
	}
	return tea.Batch(syncCmd, m.apply(w), m.fill())
}

// apply shows a window where its kind says.
func (m *Model) apply(w windowMsg) tea.Cmd {
	m.fromNote = "(service)"
	if w.mirror {
		m.fromNote = "(mirror)"
	}
	if w.how != "older" && w.how != "newer" {
		m.inSpan = false // a new landing leaves the span
		if !w.counted {
			m.count = noCount // and the saved count, but for its own
		}
	}
	switch w.how {
	case "newest":
		m.atNewest, m.atStart, m.newCount = true, w.edge, 0
		return m.show(w.entries, 0)
	case "oldest":
		m.atNewest, m.atStart = w.edge, true
		return m.show(w.entries, len(w.entries)-1)
	case "span":
		m.atNewest, m.atStart, m.inSpan = true, true, true // nothing else belongs to the span
		return m.show(w.entries, 0)
	case "jump":
		m.atNewest, m.atStart = w.edge, false
		cmd := m.show(w.entries, w.land)
		m.Table.Centre() // newer entries above the target, older below, both on screen
		return cmd
	case "older":
		m.atStart = w.edge
		return m.add(nil, w.entries)
	case "newer":
		m.atNewest = w.edge
		return m.add(w.entries, nil)
	}
	return nil
}

// show replaces the entries and puts the cursor on row land.
func (m *Model) show(entries []store.AuditEntry, land int) tea.Cmd {
	m.entries = nil
	m.byID = map[string]int{}
	cmd := m.Table.SetRows(nil)
	cmd = tea.Batch(cmd, m.add(nil, entries))
	m.Table.Move(-m.Table.Len())
	m.Table.Move(land)
	return cmd
}

// add puts entries above and below what is shown, skipping any already
// shown (windows found by time overlap at their edges).
func (m *Model) add(above, below []store.AuditEntry) tea.Cmd {
	keep := func(es []store.AuditEntry) []store.AuditEntry {
		out := es[:0:0]
		for _, e := range es {
			if _, dup := m.byID[e.ID]; !dup {
				m.byID[e.ID] = -1
				out = append(out, e)
				m.types[e.Type] = struct{}{}
			}
		}
		return out
	}
	above, below = keep(above), keep(below)
	atTop := m.Table.Cursor() == 0
	m.entries = append(append(above, m.entries...), below...)
	for i, e := range m.entries {
		m.byID[e.ID] = i
	}
	rows := m.tableRows()
	// SetRows keeps the cursor on its entry; a follower at the top stays
	// at the top, where the new entries arrive.
	cmd := m.Table.SetRows(rows)
	switch {
	case len(above) > 0 && atTop && m.following:
		m.Table.Move(-m.Table.Len())
	case len(above) > 0:
		m.Table.Shift(m.shownOf(above)) // the rows on screen stay where they were drawn
	}
	return cmd
}

// failed keeps what was loaded on screen and reports the error.
func (m *Model) failed(err error) tea.Cmd {
	m.lastErr = err
	return page.Error(err)
}

// maxSpan bounds what a span (`:audit FROM..UNTIL`) lists.
const maxSpan = 10_000

// span lists the entries of [from, until) that pass the filter, newest
// first: the entries behind an activity bar or mark, and only those.
func (m *Model) span(from, until time.Time) tea.Cmd {
	j, f := m.job, m.filter
	m.following = false
	return m.read("span", func(ctx context.Context) (windowMsg, error) {
		q := f
		q.Since, q.Until, q.Limit = from, until, maxSpan
		var got []store.AuditEntry
		a, err := j.Query(ctx, q, func(e store.AuditEntry) error { got = append(got, e); return nil })
		slices.Reverse(got)
		return windowMsg{how: "span", entries: got, edge: true, mirror: a.Mirror && !a.Service, reqs: a.Requests}, err
	})
}
