package printer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/spf13/pflag"
)

// stderrTTY is a stderr that says it is a terminal.
type stderrTTY struct{ bytes.Buffer }

func (*stderrTTY) IsTerminal() bool { return true }

// parsed is a printer over out and errw with the format flags args parsed,
// started as the command "things".
func parsed(t *testing.T, out, errw io.Writer, args ...string) *Printer {
	t.Helper()
	p := New(nil, out, errw)
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	p.RegisterFlags(fs, nil)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background(), "things")
	return p
}

// shown is Show of r under the flags args: stdout, stderr, Show's error.
func shown(t *testing.T, r Result, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	p := parsed(t, &out, &errb, args...)
	err := p.Show(r)
	p.Finish(ExitOK)
	return out.String(), errb.String(), err
}

// TestShowResultEveryFormat: a command's one result is its JSON when
// --json, --jq or --template asked for it, whatever --jsonl says, and one
// line under --jsonl; --jsonl alone is a listing's format and shows the
// text; --csv shows its table as CSV. Its summary goes under the text or
// on stderr beside the CSV, its notes to stderr after either: the JSON has
// neither.
func TestShowResultEveryFormat(t *testing.T) {
	built := 0
	r := Result{
		JSON: func() (any, error) { built++; return map[string]int{"a": 1}, nil },
		Text: func(w io.Writer) error { _, err := io.WriteString(w, "text\n"); return err },
		Table: func(row func([]string) error) error {
			_ = row([]string{"A", "B"})
			return row([]string{"=1+1", "x"})
		},
		Summary: "1 thing",
		Notes:   []string{"look at\x1b[2J it"},
	}
	const notes = "vaultdeck things: look at it\n"
	for _, c := range []struct {
		args            []string
		stdout, stderr  string
		builtJSONBefore bool
	}{
		{nil, "text\n1 thing\n", notes, false},
		{[]string{"--jsonl"}, "text\n1 thing\n", notes, false},
		{[]string{"--csv"}, "A,B\n'=1+1,x\n", "1 thing\n" + notes, false},
		{[]string{"--jsonl", "--csv"}, "text\n1 thing\n", notes, false},
		{[]string{"--json"}, "{\n  \"a\": 1\n}\n", "", true},
		{[]string{"--json", "--csv"}, "{\n  \"a\": 1\n}\n", "", true},
		{[]string{"--json", "--jsonl"}, "{\"a\":1}\n", "", true},
		{[]string{"--jq", ".a"}, "1\n", "", true},
		{[]string{"--jsonl", "--jq", ".a"}, "1\n", "", true},
		{[]string{"--jsonl", "--jq", "."}, "{\"a\":1}\n", "", true},
		{[]string{"--template", "{{.a}}"}, "1", "", true},
		{[]string{"--csv", "--template", "{{.a}}"}, "1", "", true},
	} {
		before := built
		out, errText, err := shown(t, r, c.args...)
		if err != nil || out != c.stdout || errText != c.stderr {
			t.Errorf("%v: %v, stdout %q, stderr %q; want %q, %q", c.args, err, out, errText, c.stdout, c.stderr)
		}
		if got := built > before; got != c.builtJSONBefore {
			t.Errorf("%v: JSON built %v: it is built exactly when shown", c.args, got)
		}
	}
}

// TestShowResultWithFewerForms: a result without a table shows its text
// under --csv; one without a text shows its table aligned; one whose only
// form is JSON is that JSON in every format; a document written as it is
// read is written as it is, --jsonl or not.
func TestShowResultWithFewerForms(t *testing.T) {
	text := func(w io.Writer) error { _, err := io.WriteString(w, "text\n"); return err }
	table := func(row func([]string) error) error {
		_ = row([]string{"NAME", "N"})
		_ = row([]string{"longer", ""})
		return row([]string{"a", "2"})
	}
	json := func() (any, error) { return map[string]int{"a": 1}, nil }
	doc := func(w io.Writer) error { _, err := io.WriteString(w, "{\n \"as\": \"written\"\n}\n"); return err }
	for _, c := range []struct {
		r    Result
		args []string
		want string
	}{
		{Result{JSON: json, Text: text}, []string{"--csv"}, "text\n"},
		{Result{JSON: json, Table: table}, nil, "NAME    N\nlonger  -\na       2\n"},
		{Result{JSON: json, Table: table}, []string{"--jsonl"}, "NAME    N\nlonger  -\na       2\n"},
		{Result{JSON: json}, nil, "{\n  \"a\": 1\n}\n"},
		{Result{JSON: json}, []string{"--csv"}, "{\n  \"a\": 1\n}\n"},
		{Result{JSON: json}, []string{"--jsonl"}, "{\"a\":1}\n"},
		{Result{WriteJSON: doc, Text: text}, []string{"--json"}, "{\n \"as\": \"written\"\n}\n"},
		{Result{WriteJSON: doc, Text: text}, []string{"--json", "--jsonl"}, "{\n \"as\": \"written\"\n}\n"},
		{Result{WriteJSON: doc, Text: text}, []string{"--jsonl", "--jq", ".as"}, "written\n"},
		{Result{WriteJSON: doc, Text: text}, []string{"--jsonl"}, "text\n"},
	} {
		if out, _, err := shown(t, c.r, c.args...); err != nil || out != c.want {
			t.Errorf("%v: %v, %q, want %q", c.args, err, out, c.want)
		}
	}
}

// TestShowResultExport: a command's own flag naming its result's form
// (matters receipt --export csv|json) wins over the format flags; JSON
// stays one line under --jsonl.
func TestShowResultExport(t *testing.T) {
	r := Result{
		JSON:  func() (any, error) { return map[string]int{"a": 1}, nil },
		Text:  func(w io.Writer) error { _, err := io.WriteString(w, "text\n"); return err },
		Table: func(row func([]string) error) error { return row([]string{"A"}) },
	}
	for _, c := range []struct {
		export Format
		args   []string
		want   string
	}{
		{CSV, nil, "A\n"},
		{CSV, []string{"--json"}, "A\n"},
		{CSV, []string{"--jsonl"}, "A\n"},
		{JSON, nil, "{\n  \"a\": 1\n}\n"},
		{JSON, []string{"--csv"}, "{\n  \"a\": 1\n}\n"},
		{JSON, []string{"--jsonl"}, "{\"a\":1}\n"},
		{JSON, []string{"--jsonl", "--csv"}, "{\"a\":1}\n"},
	} {
		r.Export = c.export
		if out, _, err := shown(t, r, c.args...); err != nil || out != c.want {
			t.Errorf("export %v %v: %v, %q, want %q", c.export, c.args, err, out, c.want)
		}
	}
}

// TestShowResultSaysItsFormsError: a form that fails (a receipt's items
// unreadable) is Show's error, after what it wrote; the summary and notes,
// which describe a whole result, are not said.
func TestShowResultSaysItsFormsError(t *testing.T) {
	broken := errors.New("receipt 1 could not be read")
	r := Result{
		JSON: func() (any, error) { return nil, broken },
		Table: func(row func([]string) error) error {
			_ = row([]string{"A"})
			_ = row([]string{"1"})
			return broken
		},
		Summary: "1 thing", Notes: []string{"note"},
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--csv"}, "A\n1\n"}, // the records read before the error
		{[]string{"--json"}, ""},
		{nil, ""}, // the table measures every row before it writes one
	} {
		out, errText, err := shown(t, r, c.args...)
		if !errors.Is(err, broken) || out != c.want || errText != "" {
			t.Errorf("%v: %v, %q, %q", c.args, err, out, errText)
		}
	}
}

// TestHumanIsSilentWhenTheResultIsJSON: what a person reads on stderr
// around a result (a progress line, notes) reaches stderr unless the
// result is JSON, and a terminal check looks through it.
func TestHumanIsSilentWhenTheResultIsJSON(t *testing.T) {
	for _, c := range []struct {
		args []string
		said bool
	}{
		{nil, true}, {[]string{"--jsonl"}, true}, {[]string{"--csv"}, true},
		{[]string{"--json"}, false}, {[]string{"--jq", "."}, false}, {[]string{"--jsonl", "--jq", "."}, false}, {[]string{"--template", "{{.}}"}, false},
	} {
		var out bytes.Buffer
		errb := &stderrTTY{}
		p := parsed(t, &out, errb, c.args...)
		fmt.Fprintln(p.Human(), "skipped a link")
		if tty := IsTerminal(p.Human()); tty != c.said {
			t.Errorf("%v: a terminal %v through Human", c.args, tty)
		}
		p.Finish(ExitOK)
		if got := errb.String() == "skipped a link\n"; got != c.said {
			t.Errorf("%v: stderr %q", c.args, errb.String())
		}
	}
	var errb bytes.Buffer
	if p := parsed(t, io.Discard, &errb); IsTerminal(p.Human()) {
		t.Error("a stderr that is no terminal is one through Human")
	}
}
