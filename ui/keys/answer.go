package keys

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
)

// Every key either acts or says in one line why not (issue 29.3), decided
// here for every view: the root asks Answer with what the page on top
// offers, and shows the line it gets. Letters no binding has stay quiet,
// as in k9s and lazygit: a slip of the finger is not worth a line, and
// only a key that means something somewhere raises the question "why did
// it do nothing here?". Moving at an edge of a list (j on the last row,
// esc on the first page) is silent too: the screen already shows why.

// AnswerWidth is the widest answer: it stays one line on a terminal of 60
// columns. A binding's description that would take it past that is left
// out, its key and the reason kept.
const AnswerWidth = 60

// Here is what the page on top offers, as the root sees it.
type Here struct {
	// Offers are the keys the page and the root ever take here: the
	// root's keys, the page's help and its context keys.
	Offers []key.Binding
	// Acts are the keys that act now (the page's context keys), when
	// Hinted: a page that does not say is taken at its word that every
	// key it offers may act.
	Acts   []key.Binding
	Hinted bool
	// Route is the route that opened the page ("matters"): a key of the
	// page's own that its mode does not offer (X before a file is read)
	// is not sent elsewhere.
	Route string
}

// Answer is the one line for key k (as tea.KeyMsg.String spells it) on a
// page that offers here, and whether the key still goes to the page. ""
// when the key needs no answer: the page acts on it, or no binding has it.
//   - a binding this session turned off: why (read-only, served over SSH),
//     and the page never gets it;
//   - a key the page does not offer: not here, and where it works;
//   - a key the page offers but that acts on nothing now: nothing to act
//     on (enter: nothing to open).
//
// The last two still go to the page: one that acts without saying so
// loses nothing (TestEveryKeyActsOrSaysWhy holds the views to their word).
func (m Map) Answer(k string, here Here) (line string, toPage bool) {
	if why, off := m.Off(k); off {
		return why, false
	}
	bs := m.withKey(k)
	if len(bs) == 0 {
		return "", true
	}
	offers := m.companions(here.Offers)
	acts := !here.Hinted || has(m.companions(Enabled(here.Acts...)), k) || m.moves(k)
	switch {
	case has(offers, k) && acts:
		return "", true
	case has([]key.Binding{m.Enter}, k):
		return NothingToOpen, true
	case !has(offers, k) && !slices.ContainsFunc(bs, func(b named) bool { return slices.Contains(Homes(b.name), here.Route) }):
		return notHere(bs, k), true
	}
	return fit(bs[0].b, ": nothing to act on here now"), true
}

// companions adds to bs the keys that go wherever their companion does,
// which a footer leaves out for room: shift+tab with tab, O (reverse
// sort) with o, and a table's o and O with its / (the footer offers
// sorting from two rows on; one row still shows its sort).
func (m Map) companions(bs []key.Binding) []key.Binding {
	out := slices.Clone(bs)
	for _, pair := range [][2]key.Binding{{m.NextTab, m.PrevTab}, {m.SortNext, m.SortReverse}, {m.Filter, m.SortNext}, {m.Filter, m.SortReverse}} {
		if has(bs, pair[0].Keys()[0]) {
			out = append(out, pair[1])
		}
	}
	return out
}

// Over is the line for key k pressed over an overlay that takes the
// keyboard to scroll (the help, the last errors), named by what ("the
// help is open"): "" for a key that scrolls or closes it, and for one no
// binding has.
func (m Map) Over(k, what string) string {
	if len(m.withKey(k)) == 0 || m.moves(k) || has([]key.Binding{m.Help, m.Quit, m.Errors}, k) {
		return ""
	}
	return k + ": " + what + "; esc closes it"
}

// NothingToOpen answers enter where the page names no use for it (a
// person's grant, an empty list).
const NothingToOpen = "enter: nothing to open here"

// moves reports whether k moves within a list (a row, a bar) or back a
// page: at an edge it does nothing, which the screen shows, so where the
// page offers it, it needs no answer.
func (m Map) moves(k string) bool {
	return has([]key.Binding{m.Up, m.Down, m.PageUp, m.PageDown, m.Top, m.Bottom, m.Back, m.Earlier, m.Later}, k)
}

// named is an enabled binding with its field name.
type named struct {
	name string
	b    key.Binding
}

// withKey lists the enabled bindings that have key k (two when two views
// share it: b is the bin's grouping and the activity view's period).
func (m Map) withKey(k string) []named {
	var out []named
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		if !v.Field(i).CanInterface() {
			continue
		}
		b, ok := v.Field(i).Interface().(key.Binding)
		if ok && b.Enabled() && slices.Contains(b.Keys(), k) {
			out = append(out, named{v.Type().Field(i).Name, b})
		}
	}
	return out
}

// homes names, for each binding of one or two views, the routes where it
// acts; the line for it elsewhere says where to go. Bindings of nearly
// every view (a list's keys, tab) are said by the kind of page instead
// (kinds); the root's own (r, e, ?) are offered everywhere.
// TestHomesAreTheViewsThatOfferThem (ui/console) holds this to the views'
// help.
var homes = map[string][]string{
	"StatusFilter": {"project", "matters"}, "SendToFiles": {"project"}, "ToggleIDs": {"project", "files"},
	"MatterFilter": {"bin"}, "PurgingSoon": {"bin"}, "ByDeleter": {"bin"}, "AuditAround": {"bin"},
	"PasteIDs": {"files"}, "GroupFilter": {"files"}, "Reupload": {"files"},
	"TypeFilter": {"audit"}, "AuditJump": {"audit"}, "AuditUser": {"audit"}, "AuditIP": {"audit"},
	"Follow": {"audit"}, "OwnReads": {"audit"}, "Activity": {"audit"},
	"Earlier": {"activity"}, "Later": {"activity"}, "ByPeriod": {"activity"},
	"CancelRun": {"matters"}, "OpenFile": {"matters"}, "RunDelete": {"matters"}, "Restore": {"matters"},
	"Delete": {"project"}, "Upload": {"project"}, "DeleteFiles": {"project"}, "UndoRun": {"upload"}, "DuplicateMode": {"upload"}, "RemoveAccess": {"person"}, "ChangeLevel": {"project"}, "UndoAccess": {"receipts"}, "GrantAccess": {"project"},
	// of three or four views: the line names them all, as it does one
	"Person": {"project", "bin", "audit", "access"}, "TypeCycle": {"audit", "activity"},
}

// kinds says where a key of (nearly) every view works, by the kind of
// page: a list of its views would not fit one line of 60 columns.
var kinds = map[string]string{
	"Up": "in a list", "Down": "in a list", "PageUp": "in a list", "PageDown": "in a list",
	"Top": "in a list", "Bottom": "in a list", "Filter": "in a list", "SortNext": "in a list", "SortReverse": "in a list",
	"Mark":    "in a list", // every table marks its rows (the projects too, once loaded)
	"NextTab": "on a page with tabs", "PrevTab": "on a page with tabs",
	"RunHere": "where a line offers a sync or a crawl",
}

// Homes is the routes where the binding named (a field of Map) acts,
// nil for one of many views.
func Homes(name string) []string { return homes[name] }

// place is how a line names a route to go to.
func place(route string) string {
	if route == "project" {
		return "a project"
	}
	return ":" + route
}

// notHere is the line for a key the page does not offer: where it works
// when one or two views have it, else only that it is not on this page.
func notHere(bs []named, k string) string {
	var where []string
	for _, b := range bs {
		hs := Homes(b.name)
		if hs == nil {
			if kind, ok := kinds[b.name]; ok && len(bs) == 1 {
				return fit(b.b, ": not here; it works "+kind)
			}
			return fit(bs[0].b, ": not on this page")
		}
		for _, h := range hs {
			if !slices.Contains(where, place(h)) {
				where = append(where, place(h))
			}
		}
	}
	rest := ": not here; open " + where[len(where)-1]
	if len(where) > 1 { // "a project, :bin, :audit or :access"
		rest = ": not here; open " + strings.Join(where[:len(where)-1], ", ") + " or " + where[len(where)-1]
	}
	if len(bs) > 1 { // one key, two meanings: the key alone
		return k + rest
	}
	return fit(bs[0].b, rest)
}

// fit is "KEY (description)REST", or "KEYREST" where the description
// would take the line past AnswerWidth.
func fit(b key.Binding, rest string) string {
	if s := fmt.Sprintf("%s (%s)%s", b.Help().Key, b.Help().Desc, rest); ansi.StringWidth(s) <= AnswerWidth {
		return s
	}
	return b.Help().Key + rest
}

func has(bs []key.Binding, k string) bool {
	return slices.ContainsFunc(bs, func(b key.Binding) bool { return slices.Contains(b.Keys(), k) })
}
