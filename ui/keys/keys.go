// Package keys is the one key map of the console. Every view reads its
// bindings from here, and the mutating ones are disabled here, in one place,
// when the session is read-only: a view cannot bind a delete of its own
// (k9s's per-view gating once leaked a delete into a read-only view).
package keys

import (
	"maps"
	"reflect"
	"slices"

	"github.com/charmbracelet/bubbles/key"
)

// Map holds every binding of the program. Help text is generated from it.
type Map struct {
	// navigation
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Enter, Back, NextTab, PrevTab           key.Binding
	// table
	Filter, SortNext, SortReverse, Mark key.Binding
	// global
	Help, Command, Quit, Copy, Show, Refresh key.Binding
	Errors                                   key.Binding // the last errors whole
	// Export writes the view's table as shown to a CSV file: a local file,
	// so a session without local files (serve) does not get it.
	Export key.Binding
	// Equivalent shows the headless command that lists what the view
	// shows (y copies it); SaveView saves that query under a name, in a
	// local file, so a session without local files does not get it.
	Equivalent, SaveView key.Binding
	// view actions. Each view binds only the keys listed here, so `?` help
	// is generated from this one map and TestNoKeyIsBoundTwice catches a
	// view action that would shadow a global key.
	StatusFilter, MatterFilter, SendToFiles key.Binding
	PasteIDs                                key.Binding // file status: add/paste file IDs
	TypeCycle, TypeFilter                   key.Binding // audit: cycle / type the log-type filter
	CancelRun                               key.Binding // matters: stop a run between requests
	GroupFilter                             key.Binding // file status: 0 all, 1-5 one triage group
	ToggleIDs                               key.Binding // file status: IDs whole, names giving way
	PurgingSoon                             key.Binding // recycle bin: only what is purged within 7 days
	ByDeleter                               key.Binding // recycle bin: grouped by who deleted, with counts
	AuditJump, AuditUser, AuditIP, Follow   key.Binding // audit: jump to a time, filter by user / address, follow live
	AuditAround                             key.Binding // recycle bin: the audit log around a deletion, by its deleter
	OwnReads                                key.Binding // audit: show / hide this token's own reads of the log
	Activity                                key.Binding // audit: the activity view (histogram, top lists, marks)
	Earlier, Later, ByPeriod                key.Binding // activity: the bar before / after, by hour / by day
	// Person opens `:person` for the person a row names: a deleter in the
	// bin, a user of a project, an audit entry's user, a person in the
	// access review. One letter in all four.
	Person  key.Binding
	RunHere key.Binding // run the chore a hint asks for (audit sync, access crawl) in the console
	// mutating: disabled in read-only sessions
	Delete key.Binding
	// write jobs, also disabled without them (Session.Jobs). matters: open
	// a file to delete its pairs, send them, restore a receipt
	OpenFile, RunDelete, Restore key.Binding
	Upload                       key.Binding // project: upload files and folders
	DeleteFiles                  key.Binding // project's Files tab: delete the selected or marked files
	UndoRun                      key.Binding // upload: delete the files the run created (its undo)
	RemoveAccess                 key.Binding // person: plan and remove the marked (or selected) direct shares
	ChangeLevel                  key.Binding // a project's Users tab: READ to MANAGE or back, for the selected user
	UndoAccess                   key.Binding // receipts: undo the selected access job (plan, confirm, run)
	GrantAccess                  key.Binding // a project's Users tab: give an address READ or MANAGE (prompt, plan, confirm, run)
	Reupload                     key.Binding // file status: re-upload stuck or failed files (replace)
	DuplicateMode                key.Binding // upload: what to do with a file already in the project

	// off holds, for each binding this session turned off, why (by field
	// name): a gated key is still recognised and answered (Off), never
	// silent. Set by NewSession only.
	off map[string]string
}

// viewOnly names the one view that reads each binding listed: two
// bindings of different views may share a key, since no screen reads
// both (h is the audit view's own reads and the activity view's earlier
// bar; b the recycle bin's grouping and the activity view's period).
// Every other binding is read where any view is shown, and its keys mean
// that one thing (TestNoKeyIsBoundTwice).
var viewOnly = map[string]string{
	"OwnReads":  "audit",
	"ByDeleter": "recycle bin",
	"Earlier":   "activity",
	"Later":     "activity",
	"ByPeriod":  "activity",
	// X: each view's own deletion (they never share a screen)
	"RunDelete":    "matters",
	"DeleteFiles":  "project",
	"UndoRun":      "upload",
	"RemoveAccess": "person",
	// U: a receipt's undo (matters' restore, an access job's undo)
	"Restore":    "matters",
	"UndoAccess": "receipts",
}

// Session is what one console session may do. It is decided once, where
// the console is assembled (ui/console), and everything follows from it:
// the key map binds only what the session can run, and the session is
// handed its write jobs (page.Env.Jobs) only when RunsJobs says so.
type Session struct {
	// ReadOnly: nothing that changes the workspace.
	ReadOnly bool
	// ReadOnlyWhy is what a gated mutating key says ("" = WhyReadOnly):
	// serve tells a key without the write option from a read-only server.
	ReadOnlyWhy string
	// NoLocalFiles: nothing that reads or writes a file on this machine (an
	// SSH session: the file system is the server's).
	NoLocalFiles bool
	// Jobs: the write jobs (uploads, matter runs) were handed over.
	Jobs bool
}

// RunsJobs reports whether the session runs its write jobs: they were
// handed over and the session is not read-only. The console hands them to
// the views only then, and binds their keys only then.
func (s Session) RunsJobs() bool { return s.Jobs && !s.ReadOnly }

// New returns the key map of a session that was handed no write job;
// readOnly disables every mutating binding.
func New(readOnly bool) Map { return NewSession(Session{ReadOnly: readOnly}) }

// NewSession is the key map of session s: every binding s cannot run is
// disabled, here, in one place.
func NewSession(s Session) Map {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	m := Map{
		Up:       b("↑/k", "up", "up", "k"),
		Down:     b("↓/j", "down", "down", "j"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+f", " "),
		Top:      b("g", "top", "g", "home"),
		Bottom:   b("G", "bottom", "G", "end"),
		Enter:    b("enter", "open", "enter"),
		Back:     b("esc", "back", "esc"),
		NextTab:  b("tab", "next tab", "tab"),
		PrevTab:  b("shift+tab", "previous tab", "shift+tab"),

		Filter:      b("/", "filter", "/"),
		SortNext:    b("o", "sort by next column", "o"),
		SortReverse: b("O", "reverse sort", "O"),
		Mark:        b("x", "mark row (y copies the marked)", "x"),

		Help:    b("?", "help", "?"),
		Errors:  b("!", "last errors in full", "!"),
		Command: b(":", "command", ":"),
		Quit:    b("q", "quit", "q", "ctrl+c"),
		Copy:    b("y", "copy id (or marked ids)", "y"),
		Show:    b("Y", "show id to select", "Y"),
		Refresh: b("r", "refresh", "r"),
		Export:  b("e", "export view to CSV", "e"),

		Equivalent: b("C", "command for this view", "C"),
		SaveView:   b("V", "save view (:NAME)", "V"),

		StatusFilter: b("f", "cycle status filter", "f"),
		MatterFilter: b("m", "client-matter filter", "m"),
		SendToFiles:  b("s", "send files to :files", "s"),
		PasteIDs:     b("a", "add/paste file IDs", "a"),
		TypeCycle:    b("t", "cycle type filter", "t"),
		TypeFilter:   b("T", "type a type filter", "T"),
		ToggleIDs:    b("i", "show IDs whole (names give way) / back", "i"),
		PurgingSoon:  b("p", "only purging within 7 days / all", "p"),
		ByDeleter:    b("b", "group by who deleted / back", "b"),
		AuditJump:    b("@", "jump to a time", "@"),
		AuditUser:    b("w", "user filter (who)", "w"),
		AuditIP:      b("I", "address filter (IP)", "I"),
		Follow:       b("F", "follow live / stop", "F"),
		AuditAround:  b("A", "audit log around the deletion", "A"),
		OwnReads:     b("h", "show / hide this token's own reads of the log", "h"),
		Activity:     b("S", "activity at a glance (stats)", "S"),
		Earlier:      b("←/h", "earlier bar", "left", "h"),
		Later:        b("→/l", "later bar", "right", "l"),
		ByPeriod:     b("b", "by hour / by day", "b"),
		Person:       b("P", "this person, whole", "P"),
		RunHere:      b("L", "run the sync or crawl a hint asks for, here", "L"),
		GroupFilter:  b("0-5", "show all / ready / processing / stuck / failed / missing", "0", "1", "2", "3", "4", "5"),

		CancelRun:     b("c", "cancel after the current request", "c"),
		DuplicateMode: b("ctrl+t", "next duplicate mode", "ctrl+t"),

		Delete:       b("D", "delete project", "D"),
		OpenFile:     b("n", "open a matter file", "n"),
		RunDelete:    b("X", "delete the previewed matters", "X"),
		Restore:      b("U", "restore the receipt's deleted matters", "U"),
		Upload:       b("u", "upload files", "u"),
		DeleteFiles:  b("X", "delete the selected or marked files (Users tab: remove the selected user's direct share)", "X"),
		UndoRun:      b("X", "undo this upload: delete the files it created", "X"),
		ChangeLevel:  b("=", "change the selected user's level (READ / MANAGE): plan, confirm, run", "="),
		RemoveAccess: b("X", "remove the marked (or selected) direct shares: plan, confirm, run", "X"),
		GrantAccess:  b("+", "grant an address READ or MANAGE: plan, confirm, run", "+"),
		UndoAccess:   b("U", "undo the selected access job: put back what its receipt changed (plan, confirm, run)", "U"),
		Reupload:     b("R", "re-upload stuck/failed (replace)", "R"),
	}
	// The most telling reason is recorded first and kept: a u over a
	// read-only SSH session is off because the session is read-only.
	m.off = map[string]string{}
	if s.ReadOnly {
		why := s.ReadOnlyWhy
		if why == "" {
			why = WhyReadOnly
		}
		m.gate(m.mutating(), why)
	}
	if s.NoLocalFiles {
		m.gate(m.localFiles(), WhyNoLocalFiles)
	}
	if !s.RunsJobs() {
		m.gate(m.jobs(), WhyNoJobs)
	}
	return m
}

// Why a gated key does nothing, as the status line says it.
const (
	WhyReadOnly     = "this session is read-only"
	WhyNoLocalFiles = "served over SSH"
	WhyNoJobs       = "this session was not given the write jobs"
	WhyNoViews      = "this session keeps no saved views"
)

// TurnOff disables b, a binding of m, for why: what the root learns of the
// session after the map is made (nowhere to keep saved views). The reasons
// are copied first: a copy of the map made before keeps its own.
func (m *Map) TurnOff(b *key.Binding, why string) {
	m.off = maps.Clone(m.off)
	m.gate([]*key.Binding{b}, why)
}

// gate turns bs off for reason, unless an earlier reason already did.
func (m *Map) gate(bs []*key.Binding, reason string) {
	v := reflect.ValueOf(m).Elem()
	for _, b := range bs {
		b.SetEnabled(false)
		for i := range v.NumField() {
			if v.Field(i).CanInterface() && v.Field(i).Addr().Interface() == any(b) {
				name := v.Type().Field(i).Name
				if _, ok := m.off[name]; !ok {
					m.off[name] = reason
				}
			}
		}
	}
}

// Off reports whether k (as tea.KeyMsg.String spells it) is the key of a
// binding this session turned off, and says so in one line: "D (delete
// project) is off: this session is read-only". The root answers such a key
// with that line instead of passing it on, where it would do nothing,
// silently (k9s flashes the same way).
func (m Map) Off(k string) (string, bool) {
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		if !v.Field(i).CanInterface() {
			continue
		}
		b, ok := v.Field(i).Interface().(key.Binding)
		if !ok || b.Enabled() {
			continue
		}
		why, gated := m.off[v.Type().Field(i).Name]
		if !gated {
			continue
		}
		if slices.Contains(b.Keys(), k) {
			return fit(b, " is off: "+why), true
		}
	}
	return "", false
}

// localFiles lists the bindings that write or read a file on this machine.
// Add new ones here and sessions without local files lose them (over SSH
// the files would be the server's; serve has no upload or matters view, so
// u was offered on a project's footer and answered 'there is no command').
func (m *Map) localFiles() []*key.Binding {
	return []*key.Binding{&m.Export, &m.SaveView, &m.Upload, &m.Reupload, &m.OpenFile}
}

// jobs lists the bindings that start a write job (page.Env.Jobs): a
// session without them cannot run these, so it does not bind them.
func (m *Map) jobs() []*key.Binding {
	return []*key.Binding{&m.OpenFile, &m.RunDelete, &m.Restore, &m.Upload, &m.Reupload, &m.DeleteFiles, &m.UndoRun, &m.RemoveAccess, &m.ChangeLevel, &m.UndoAccess, &m.GrantAccess}
}

// mutating lists the bindings that change server state. Add new mutating
// bindings here and read-only sessions lose them automatically.
func (m *Map) mutating() []*key.Binding {
	return []*key.Binding{&m.Delete, &m.OpenFile, &m.RunDelete, &m.Restore, &m.Upload, &m.Reupload, &m.DeleteFiles, &m.UndoRun, &m.RemoveAccess, &m.ChangeLevel, &m.UndoAccess, &m.GrantAccess}
}

// MattersAvailable reports whether the matters view may be used: it exists
// only to change the workspace, so a read-only session, or one not handed
// the matter job, does not get it.
func (m Map) MattersAvailable() bool { return m.RunDelete.Enabled() }

// Navigation is the help group shared by every table view.
func (m Map) Navigation() []key.Binding {
	return []key.Binding{m.Up, m.Down, m.PageUp, m.PageDown, m.Top, m.Bottom, m.Filter, m.SortNext, m.SortReverse, m.Mark}
}

// Global is the help group handled by the root.
func (m Map) Global() []key.Binding {
	return []key.Binding{m.Help, m.Command, m.Back, m.Copy, m.Show, m.Export, m.Equivalent, m.SaveView, m.Refresh, m.Errors, m.Quit}
}

// Enabled filters out disabled bindings, so help never advertises a key
// that does nothing in this session.
func Enabled(bs ...key.Binding) []key.Binding {
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		if b.Enabled() {
			out = append(out, b)
		}
	}
	return out
}

// Binds reports whether an enabled binding of the map has the key k (as
// tea.KeyMsg.String spells it, "alt+x"). The root asks it of alt keys: Esc
// and a key arriving in one read come as Alt+key in Bubble Tea v1, and an
// alt key that nothing binds is that Esc followed by the key. Reflection
// covers bindings added later without anyone listing them here.
func (m Map) Binds(k string) bool {
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		if !v.Field(i).CanInterface() {
			continue // off, the reasons
		}
		b, ok := v.Field(i).Interface().(key.Binding)
		if !ok || !b.Enabled() {
			continue
		}
		for _, bk := range b.Keys() {
			if bk == k {
				return true
			}
		}
	}
	return false
}

// Hint is b with a short description, for the footer's context line. The
// keys and the enabled state stay the map's, so the footer cannot offer a
// key that read-only disabled.
func Hint(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// HintKey is Hint for one key of b (the "1" of the group keys 0-5); a key
// that b does not have gives a disabled binding, which nothing shows.
func HintKey(b key.Binding, k, desc string) key.Binding {
	for _, bk := range b.Keys() {
		if bk == k {
			b.SetKeys(k)
			b.SetHelp(k, desc)
			return b
		}
	}
	return key.NewBinding(key.WithDisabled())
}
