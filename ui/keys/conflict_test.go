package keys

import (
	"reflect"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// all returns every binding of the map by reflection, so a binding added
// later is checked without anyone remembering to list it.
func all(m Map) map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		if !v.Field(i).CanInterface() {
			continue
		}
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out[v.Type().Field(i).Name] = b
		}
	}
	return out
}

// No key may mean two things: a view action bound to a global key (?, :,
// q, esc, y, r, /, o, O) would be unreachable or shadow the global one.
// Two bindings share a key only when each is read by one view alone
// (viewOnly) and the views differ. Every field of the map is checked, so
// a view's own keys belong in it (the activity view's once lived in the
// view, where nothing checked them).
func TestNoKeyIsBoundTwice(t *testing.T) {
	owner := map[string][]string{}
	for name, b := range all(New(false)) {
		if len(b.Keys()) == 0 {
			t.Errorf("%s has no keys", name)
		}
		for _, k := range b.Keys() {
			for _, prev := range owner[k] {
				v, pv := viewOnly[name], viewOnly[prev]
				if v == "" || pv == "" || v == pv {
					t.Errorf("key %q bound to both %s and %s", k, prev, name)
				}
			}
			owner[k] = append(owner[k], name)
		}
	}
	for _, k := range []string{"?", ":", "q", "esc", "y", "r", "/", "o", "O", "a", "t", "T", "h", "l", "left", "right", "b"} {
		if _, ok := owner[k]; !ok {
			t.Errorf("key %q is not in the map", k)
		}
	}
	for name := range viewOnly {
		if _, ok := all(New(false))[name]; !ok {
			t.Errorf("viewOnly names %s, which the map does not hold", name)
		}
	}
}

// View actions live in the map too, so help is generated from it.
func TestViewActionsInMap(t *testing.T) {
	m := New(true)
	for _, c := range []struct {
		b    key.Binding
		keys string
	}{{m.PasteIDs, "a"}, {m.TypeCycle, "t"}, {m.TypeFilter, "T"}} {
		if !c.b.Enabled() || !key.Matches(press(c.keys), c.b) {
			t.Errorf("%q should be bound (and not read-only gated)", c.keys)
		}
	}
}
