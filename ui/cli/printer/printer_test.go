package printer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/vaultdeck/vaultdeck/api"
)

// row is a listing's item as a fake service sends it.
type row struct {
	Name string `json:"name"`
	N    int    `json:"n"`
}

// fakeStream hands pages of rows, and err after the items of failAfter
// (-1: never).
type fakeStream struct {
	pages     [][]row
	failAfter int
	err       error
}

func (s fakeStream) Raw(ctx context.Context, fn func(api.RawItem) error, page func() error) (api.Summary, error) {
	return s.Each(ctx, func(_ *row, it api.RawItem) error { return fn(it) }, page)
}

func (s fakeStream) Each(_ context.Context, fn func(*row, api.RawItem) error, page func() error) (api.Summary, error) {
	n := 0
	for _, p := range s.pages {
		for i := range p {
			if n == s.failAfter {
				return api.Summary{}, s.err
			}
			b, _ := json.Marshal(p[i])
			if err := fn(&p[i], api.RawItem{Bytes: b, Plain: true}); err != nil {
				return api.Summary{}, err
			}
			n++
		}
		if err := page(); err != nil {
			return api.Summary{}, err
		}
	}
	if n == s.failAfter {
		return api.Summary{}, s.err
	}
	return api.Summary{Total: api.Int(n), HasTotal: true}, nil
}

var rowsListing = Listing[row]{
	Headers: []string{"NAME", "N"},
	Cells:   func(r *row) []string { return []string{r.Name, itoa(r.N)} },
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// print runs List over s with the flags args and returns stdout, stderr
// and the exit status Finish settles.
func print(t *testing.T, s fakeStream, l Listing[row], args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	p := New(nil, &out, &errb)
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	p.RegisterFlags(fs, nil)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background(), "things")
	_, err := List(context.Background(), p, s, l)
	code := p.Finish(p.Done(err))
	return out.String(), errb.String(), code
}

var twoPages = fakeStream{pages: [][]row{{{"a", 1}, {"=cmd", 22}}, {{"longer name", 3}}}, failAfter: -1}

// TestListEveryFormat: one stream, one listing, each format as it is
// promised: the table aligned on the header and first page, the CSV with
// its formulas neutralised, JSON's own bytes in an array or an envelope,
// JSON Lines, and --jq on each item.
func TestListEveryFormat(t *testing.T) {
	envelope := rowsListing
	envelope.Open = `{"items":[`
	envelope.Close = func(s api.Summary, kept int) string { return `],"total":` + itoa(int(s.Total)) + `}` }
	for _, c := range []struct {
		args []string
		l    Listing[row]
		want string
	}{
		{nil, rowsListing, "NAME  N\na     1\n=cmd  22\nlonger name  3\n"},
		{[]string{"--csv"}, rowsListing, "NAME,N\na,1\n'=cmd,22\nlonger name,3\n"},
		{[]string{"--json"}, rowsListing, "[\n{\"name\":\"a\",\"n\":1},\n{\"name\":\"=cmd\",\"n\":22},\n{\"name\":\"longer name\",\"n\":3}\n]\n"},
		{[]string{"--json"}, envelope, "{\"items\":[\n{\"name\":\"a\",\"n\":1},\n{\"name\":\"=cmd\",\"n\":22},\n{\"name\":\"longer name\",\"n\":3}\n],\"total\":3}\n"},
		{[]string{"--jsonl"}, envelope, "{\"name\":\"a\",\"n\":1}\n{\"name\":\"=cmd\",\"n\":22}\n{\"name\":\"longer name\",\"n\":3}\n"},
		{[]string{"--jq", ".[] | .name"}, envelope, "a\n=cmd\nlonger name\n"},
		{[]string{"--template", `{{range .}}{{.n}};{{end}}`}, envelope, "1;22;3;"},
	} {
		out, errText, code := print(t, twoPages, c.l, c.args...)
		if code != ExitOK || out != c.want || errText != "" {
			t.Errorf("%v: exit %d, stdout %q, want %q (stderr %q)", c.args, code, out, c.want, errText)
		}
	}
}

// TestListKeepAndSort: a keep applies to every format, and a sorted
// table holds its rows and aligns them on all of them.
func TestListKeepAndSort(t *testing.T) {
	l := rowsListing
	l.Keep = func(r *row) bool { return r.N != 22 }
	l.Sort = func(a, b *row) int { return b.N - a.N }
	l.Foot = func(w io.Writer, s api.Summary, kept int) error {
		_, err := io.WriteString(w, itoa(kept)+" of "+itoa(int(s.Total))+"\n")
		return err
	}
	if out, _, _ := print(t, twoPages, l); out != "NAME         N\nlonger name  3\na            1\n2 of 3\n" {
		t.Errorf("table: %q", out)
	}
	if out, _, _ := print(t, twoPages, l, "--json"); strings.Contains(out, "cmd") || !strings.Contains(out, `"longer name"`) {
		t.Errorf("json: %q", out)
	}
	if out, _, _ := print(t, twoPages, l, "--csv"); out != "NAME,N\na,1\nlonger name,3\n" {
		t.Errorf("csv: %q", out)
	}
}

// TestListSaysWhatWasWrittenBeforeAnError: a listing that fails after two
// items has them on stdout, never the array's closing, and says so; one
// that fails before its first item prints nothing at all, not even an
// opening or a header.
func TestListSaysWhatWasWrittenBeforeAnError(t *testing.T) {
	boom := errors.New("the service stopped answering")
	for _, args := range [][]string{{"--json"}, {"--jsonl"}, {"--csv"}, nil} {
		s := twoPages
		s.failAfter, s.err = 2, boom
		out, errText, code := print(t, s, rowsListing, args...)
		if code != ExitError || errText != "vaultdeck things: the service stopped answering (2 items were written before this error)\n" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errText)
		}
		if !strings.Contains(out, "=cmd") || strings.Contains(out, "]") || strings.Contains(out, "longer") {
			t.Errorf("%v: stdout %q", args, out)
		}
		s.failAfter = 0
		if out, errText, _ := print(t, s, rowsListing, args...); out != "" || strings.Contains(errText, "written") {
			t.Errorf("%v, failing first: stdout %q, stderr %q", args, out, errText)
		}
	}
	s := twoPages
	s.failAfter, s.err = 1, boom
	if out, errText, _ := print(t, s, Listing[row]{Headers: rowsListing.Headers, Cells: rowsListing.Cells, Held: true}); out != "" || strings.Contains(errText, "written") {
		t.Errorf("held: stdout %q, stderr %q", out, errText)
	}
}

// failingWriter fails every write from its nth on.
type failingWriter struct {
	n, writes int
	got       bytes.Buffer
}

func (w *failingWriter) Write(b []byte) (int, error) {
	w.writes++
	if w.writes >= w.n {
		return 0, errors.New("no space left on device")
	}
	return w.got.Write(b)
}

// TestFirstWriteErrorIsKeptAndSaid: once stdout refused a write nothing
// more is written to it, and a command that thought it succeeded exits 1
// with the first error said once.
func TestFirstWriteErrorIsKeptAndSaid(t *testing.T) {
	out := &failingWriter{n: 2}
	var errb bytes.Buffer
	p := New(nil, out, &errb)
	p.Start(context.Background(), "things")
	io.WriteString(p.Out(), "first\n")
	p.Flush()
	io.WriteString(p.Out(), "second\n")
	p.Flush()
	io.WriteString(p.Out(), "third\n")
	if code := p.Finish(ExitOK); code != ExitError || errb.String() != "vaultdeck things: stdout failed: no space left on device: 6 bytes were written, the rest was not\n" {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if out.writes != 2 || out.got.String() != "first\n" {
		t.Errorf("%d writes reached stdout: %q", out.writes, out.got.String())
	}
}

// TestRedactsWithoutAClient: the token the factory names is removed from
// stdout, stderr and what --jq prints, though no client was ever built.
func TestRedactsWithoutAClient(t *testing.T) {
	var out, errb bytes.Buffer
	p := New(nil, &out, &errb)
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	p.RegisterFlags(fs, nil)
	p.Redact("tok-SECRET-123")
	p.Start(context.Background(), "things")
	io.WriteString(p.Out(), "a tok-SECRET-123 b\n")
	p.Note("failed with %s", "tok%2DSECRET%2D123")
	p.Finish(ExitOK)
	if got := out.String() + errb.String(); strings.Contains(strings.ToLower(got), "secret") || strings.Count(got, "[REDACTED]") != 2 {
		t.Errorf("%q", got)
	}
	out.Reset()
	p = New(nil, &out, io.Discard)
	fs = pflag.NewFlagSet("t", pflag.ContinueOnError)
	p.RegisterFlags(fs, nil)
	if err := fs.Parse([]string{"--jq", ".note"}); err != nil {
		t.Fatal(err)
	}
	p.Redact("tok-SECRET-123")
	p.Start(context.Background(), "things")
	if err := p.Show(Value{Raw: []byte(`{"note":"tok\u002dSECRET\u002d123"}`)}); err != nil {
		t.Fatal(err)
	}
	p.Finish(ExitOK)
	if strings.Contains(strings.ToLower(out.String()), "secret") {
		t.Errorf("--jq: %q", out.String())
	}
}

// TestShowEveryFormat: a single value as a table, a CSV, indented JSON
// and one line of JSON Lines a list element.
func TestShowEveryFormat(t *testing.T) {
	v := Value{JSON: []map[string]int{{"a": 1}, {"a": 2}}, Headers: []string{"A"}, Rows: [][]string{{"1"}, {""}}}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "A\n1\n-\n"},
		{[]string{"--csv"}, "A\n1\n\n"},
		{[]string{"--json"}, "[\n  {\n    \"a\": 1\n  },\n  {\n    \"a\": 2\n  }\n]\n"},
		{[]string{"--jsonl"}, "{\"a\":1}\n{\"a\":2}\n"},
	} {
		var out bytes.Buffer
		p := New(nil, &out, io.Discard)
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		p.RegisterFlags(fs, nil)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		p.Start(context.Background(), "things")
		if err := p.Show(v); err != nil || p.Finish(ExitOK) != ExitOK || out.String() != c.want {
			t.Errorf("%v: %v, %q, want %q", c.args, err, out.String(), c.want)
		}
	}
}

// TestShowJSONOnlyInEveryFormat: a value whose only form is JSON is that
// JSON in every format, never an empty table: it printed one empty line,
// exit 0, under the table and --csv.
func TestShowJSONOnlyInEveryFormat(t *testing.T) {
	v := Value{JSON: map[string]int{"id": 1}}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "{\n  \"id\": 1\n}\n"},
		{[]string{"--csv"}, "{\n  \"id\": 1\n}\n"},
		{[]string{"--json"}, "{\n  \"id\": 1\n}\n"},
		{[]string{"--jsonl"}, "{\"id\":1}\n"},
	} {
		var out bytes.Buffer
		p := New(nil, &out, io.Discard)
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		p.RegisterFlags(fs, nil)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		p.Start(context.Background(), "things")
		if err := p.Show(v); err != nil || p.Finish(ExitOK) != ExitOK || out.String() != c.want {
			t.Errorf("%v: %v, %q, want %q", c.args, err, out.String(), c.want)
		}
	}
}

// TestShowEscapesWhatATerminalActsOn: a value's strings reach --json with
// C1 controls escaped and <, > and & as they are, like every other JSON the
// command line prints (audit stats encoded its own object and wrote a user
// name's U+009B, CSI on some terminals, raw).
func TestShowEscapesWhatATerminalActsOn(t *testing.T) {
	var out bytes.Buffer
	p := New(nil, &out, io.Discard)
	p.SetFormat(JSON)
	p.Start(context.Background(), "audit stats")
	if err := p.Show(Value{JSON: map[string]string{"name": "a\u009b2J <b> & c"}}); err != nil || p.Finish(ExitOK) != ExitOK {
		t.Fatal(err)
	}
	if got := out.String(); got != "{\n  \"name\": \"a\\u009b2J <b> & c\"\n}\n" {
		t.Errorf("%q", got)
	}
}

// TestPagedTableLinesUp: headless tables were aligned page by page
// (tabwriter flushed per page), so a short first page and a wider later
// one did not line up under the header. Columns are set by the header and
// the first page for the whole listing.
func TestPagedTableLinesUp(t *testing.T) {
	type entry struct{ at, typ, user, id string }
	pages := [][]entry{
		{{"2026-01-01 00:00:00", "auth:login", "a@x.io", "1"}},
		{{"2026-01-02 00:00:00", "vault:file_upload", "b@x.io", "2"}, {"2026-01-02 00:00:01", "auth:login", "c@x.io", "3"}},
		{{"2026-01-03 00:00:00", "auth:login", "d@x.io", "4"}},
	}
	var out bytes.Buffer
	p := New(nil, &out, io.Discard)
	p.Start(context.Background(), "audit")
	_, err := List(context.Background(), p, pagedStream[entry](pages), Listing[entry]{
		Headers: []string{"TIME (UTC)", "TYPE", "USER", "ID"},
		Cells:   func(e *entry) []string { return []string{e.at, e.typ, e.user, e.id} },
	})
	if err != nil || p.Finish(ExitOK) != ExitOK {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	col := strings.Index(lines[0], "USER")
	for i, ln := range lines[1:] {
		if at := strings.Index(ln, "@") - 1; at != col && i != 1 {
			t.Errorf("row %d: USER at %d, header's at %d:\n%s", i, at, col, out.String())
		}
	}
	// The type wider than its column (second page) pushes only its own row
	// right, whole: no cell is cut, and the rows after it line up again.
	if !strings.Contains(lines[2], "vault:file_upload  b@x.io") {
		t.Errorf("the wide cell was cut or run together:\n%s", out.String())
	}
}

// pagedStream hands its pages of values, page after page.
type pagedStream[T any] [][]T

func (s pagedStream[T]) Raw(ctx context.Context, fn func(api.RawItem) error, page func() error) (api.Summary, error) {
	return s.Each(ctx, func(_ *T, it api.RawItem) error { return fn(it) }, page)
}

func (s pagedStream[T]) Each(_ context.Context, fn func(*T, api.RawItem) error, page func() error) (api.Summary, error) {
	for _, p := range s {
		for i := range p {
			if err := fn(&p[i], api.RawItem{Bytes: []byte("{}")}); err != nil {
				return api.Summary{}, err
			}
		}
		if err := page(); err != nil {
			return api.Summary{}, err
		}
	}
	return api.Summary{}, nil
}
