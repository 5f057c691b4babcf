package printer

import (
	"fmt"
	"io"
	"iter"
	"reflect"
	"strings"
	"text/template"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// tableBlock is how many tablerow rows are held before they are drawn:
// columns are set by the first block and kept (as listings' are), so a
// table over a whole listing is never held whole.
const tableBlock = 256

// tmplProgram is a parsed --template and its helpers' state.
type tmplProgram struct {
	t   *template.Template
	now func() time.Time
	w   io.Writer // where the running template writes (tablerow draws there)

	rows  [][]string
	table *columns
}

func (tp *tmplProgram) parse(src string) error {
	t, err := template.New("--template").Funcs(withComparisons(tp.funcs())).Parse(src)
	if err != nil {
		return fmt.Errorf("not a template: %s", tmplMessage(err))
	}
	tp.t = t
	return nil
}

func tmplMessage(err error) string {
	return sanitize.Line(strings.TrimPrefix(err.Error(), "template: "))
}

// cleanWriter strips escape sequences and controls (not line breaks or
// tabs) from everything a template prints; text/template writes each
// value in one piece, so a server string's sequence is never split.
type cleanWriter struct{ w io.Writer }

func (c cleanWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(c.w, sanitize.Output(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (tp *tmplProgram) exec(w io.Writer, data any) error {
	tp.w = cleanWriter{w}
	return tp.t.Execute(tp.w, data)
}

// render draws the table rows still held (end of output).
func (tp *tmplProgram) render(w io.Writer) error {
	if tp.w == nil {
		tp.w = cleanWriter{w}
	}
	_, err := tp.tablerender()
	return err
}

// tmplListing runs the template over a listing whose items arrive one at
// a time: the template is a coroutine (iter.Pull) that stops at each
// `range` step for the next item, so only one item is held and the
// template and the command never write at once.
type tmplListing struct {
	next     func() (struct{}, bool)
	stop     func()
	cur      any
	ended    bool
	finished bool
	err      error
}

func (tp *tmplProgram) startListing(w io.Writer) *tmplListing {
	l := &tmplListing{}
	run := func(suspend func(struct{}) bool) {
		items := func(body func(any) bool) {
			for suspend(struct{}{}) && !l.ended {
				if !body(l.cur) {
					return
				}
			}
		}
		l.err = tp.exec(w, iter.Seq[any](items))
		l.finished = true
	}
	l.next, l.stop = iter.Pull(run)
	l.next() // the template runs up to its first wish for an item
	return l
}

// push hands the template the next item; a template that ended without
// ranging over the listing drops the rest.
func (l *tmplListing) push(v any) error {
	if l.finished {
		return l.err
	}
	l.cur = v
	l.next()
	l.cur = nil
	if l.finished {
		return l.err
	}
	return nil
}

// end tells the template the listing is over and lets it finish.
func (l *tmplListing) end() error {
	l.ended = true
	for !l.finished {
		if _, ok := l.next(); !ok {
			break
		}
	}
	l.stop()
	return l.err
}

// funcs are gh's template helpers that fit here; color, autocolor and
// hyperlink are left out: they print escape sequences, which this output
// never carries.
func (tp *tmplProgram) funcs() template.FuncMap {
	return template.FuncMap{
		"join": func(sep string, list any) (string, error) {
			xs, err := tmplList("join", list)
			if err != nil {
				return "", err
			}
			parts := make([]string, len(xs))
			for i, x := range xs {
				parts[i] = tmplText(x)
			}
			return strings.Join(parts, sep), nil
		},
		"pluck": func(field string, list any) ([]any, error) {
			xs, err := tmplList("pluck", list)
			if err != nil {
				return nil, err
			}
			out := make([]any, 0, len(xs))
			for _, x := range xs {
				if m, ok := x.(map[string]any); ok {
					out = append(out, m[field])
				}
			}
			return out, nil
		},
		"tablerow": func(cells ...any) (string, error) {
			row := make([]string, len(cells))
			for i, c := range cells {
				row[i] = sanitize.Line(tmplText(c))
			}
			tp.rows = append(tp.rows, row)
			if len(tp.rows) >= tableBlock {
				return "", tp.drawRows()
			}
			return "", nil
		},
		"tablerender": tp.tablerender,
		"timeago": func(at any) (string, error) {
			t, err := tmplTime(at)
			if err != nil {
				return "", err
			}
			return humanize.RelTime(t, tp.now(), "ago", "from now"), nil
		},
		"timefmt": func(layout string, at any) (string, error) {
			t, err := tmplTime(at)
			if err != nil {
				return "", err
			}
			return t.Format(layout), nil
		},
		"truncate": func(width int, s any) string {
			return ansi.Truncate(tmplText(s), width, "...")
		},
	}
}

// tablerender draws the rows held and starts a new table (new columns).
func (tp *tmplProgram) tablerender() (string, error) {
	err := tp.drawRows()
	tp.table = nil
	return "", err
}

func (tp *tmplProgram) drawRows() error {
	if len(tp.rows) == 0 {
		return nil
	}
	if tp.table == nil {
		tp.table = &columns{w: tp.w}
	}
	err := tp.table.block(tp.rows, nil)
	tp.rows = tp.rows[:0]
	return err
}

// tmplText is a value as a template prints it, nil as nothing.
func tmplText(x any) string {
	if x == nil {
		return ""
	}
	return fmt.Sprint(x)
}

func tmplList(helper string, list any) ([]any, error) {
	switch xs := list.(type) {
	case []any:
		return xs, nil
	case nil:
		return nil, nil
	}
	v := reflect.ValueOf(list)
	if v.Kind() != reflect.Slice {
		return nil, fmt.Errorf("%s needs a list, not %T (a listing's items are ranged over, not passed whole)", helper, list)
	}
	out := make([]any, v.Len())
	for i := range out {
		out[i] = v.Index(i).Interface()
	}
	return out, nil
}

func tmplTime(at any) (time.Time, error) {
	s, ok := at.(string)
	if !ok {
		return time.Time{}, fmt.Errorf("a time must be text such as 2026-01-02T15:04:05Z, not %T", at)
	}
	t, err := api.ParseTime(s) // the service's forms, zone or none, as the tables read them
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a time", sanitize.Line(s))
	}
	return t.UTC(), nil
}
