package printer

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/pflag"
)

// fullAfter takes its first n bytes, then fails as a full disk does.
type fullAfter struct {
	n   int
	got bytes.Buffer
}

func (w *fullAfter) Write(b []byte) (int, error) {
	room := max(0, w.n-w.got.Len())
	if len(b) <= room {
		return w.got.Write(b)
	}
	w.got.Write(b[:room])
	return room, syscall.ENOSPC
}

var reLost = regexp.MustCompile(`^vaultdeck things: stdout failed: no space left on device: (?:nothing was written|(?:([0-9,]+) items? \()?([0-9,]+) bytes?\)? (?:was|were) written, the rest was not)\n$`)

// wholeItems counts the items whose line reached stdout whole.
func wholeItems(format string, b []byte) int {
	b = b[:bytes.LastIndexByte(b, '\n')+1]
	switch format {
	case "--jsonl":
		return bytes.Count(b, []byte("\n"))
	case "--json":
		return max(0, bytes.Count(b, []byte("\n"))-1)
	case "--csv":
		recs, _ := csv.NewReader(bytes.NewReader(b)).ReadAll()
		return max(0, len(recs)-1)
	}
	return max(0, bytes.Count(b, []byte("\n"))-1) // a table: the header, then a row a line
}

// TestLostStdoutIsSaidWithWhatReachedIt: a listing whose stdout fills up
// at any byte exits 1 with one line that counts the bytes and the whole
// items the stream took, in every format, though the listing itself went
// on or failed (no "N items were written before this error" counting what
// only reached the buffer).
func TestLostStdoutIsSaidWithWhatReachedIt(t *testing.T) {
	var pages [][]row
	for p := 0; p < 3; p++ {
		var page []row
		for i := 0; i < 40; i++ {
			page = append(page, row{Name: fmt.Sprintf("item %d.%d", p, i), N: i})
		}
		pages = append(pages, page)
	}
	boom := errors.New("the service stopped answering")
	for _, format := range []string{"--jsonl", "--json", "--csv", ""} {
		for _, room := range []int{0, 1, 17, 100, 700, 1000} {
			for _, failAfter := range []int{-1, 90} {
				w := &fullAfter{n: room}
				var errb bytes.Buffer
				p := New(nil, w, &errb)
				fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
				p.RegisterFlags(fs, nil)
				if format != "" {
					fs.Parse([]string{format})
				}
				p.Start(context.Background(), "things")
				_, err := List(context.Background(), p, fakeStream{pages: pages, failAfter: failAfter, err: boom}, rowsListing)
				code := p.Finish(p.Done(err))
				what := fmt.Sprintf("%q with room for %d bytes, the service failing after %d items", format, room, failAfter)
				lines := strings.SplitAfter(errb.String(), "\n")
				last := lines[max(0, len(lines)-2)]
				m := reLost.FindStringSubmatch(last)
				switch {
				case code != ExitError:
					t.Errorf("%s: exit %d", what, code)
				case m == nil:
					t.Errorf("%s: stderr %q", what, errb.String())
				case strings.Contains(errb.String(), "before this error"):
					t.Errorf("%s: stderr counts what only reached the buffer: %q", what, errb.String())
				case m[2] != "" && atoi(m[2]) != w.got.Len():
					t.Errorf("%s: the line says %s bytes, stdout took %d", what, m[2], w.got.Len())
				case m[2] == "" && w.got.Len() != 0:
					t.Errorf("%s: the line says nothing, stdout took %d", what, w.got.Len())
				case w.got.Len() > 0 && (m[1] == "" || atoi(m[1]) != wholeItems(format, w.got.Bytes())):
					t.Errorf("%s: the line %q; stdout holds %d whole items", what, last, wholeItems(format, w.got.Bytes()))
				}
			}
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// TestLostStderrIsAnError: a command whose stderr refused its message does
// not exit 0, and writes nothing more to it.
func TestLostStderrIsAnError(t *testing.T) {
	var out bytes.Buffer
	errw := &fullAfter{n: 10}
	p := New(nil, &out, errw)
	p.Start(context.Background(), "things")
	io.WriteString(p.Out(), "the result\n")
	fmt.Fprintln(p.Err(), "a note the reader needs")
	fmt.Fprintln(p.Err(), "and another")
	if code := p.Finish(ExitOK); code != ExitError || errw.got.String() != "a note the" || out.String() != "the result\n" {
		t.Errorf("exit %d, stderr %q, stdout %q", code, errw.got.String(), out.String())
	}
}

// TestWatchEndsWhenAStreamIsLost: the context a command's job runs on ends
// at the first write either stream refused, its cause that failure, so
// the job sends no request after its output is known lost; Fail then says
// nothing of the job's "canceled" (Finish says what was lost).
func TestWatchEndsWhenAStreamIsLost(t *testing.T) {
	for _, which := range []string{"stdout", "stderr"} {
		var out, errb bytes.Buffer
		var outw, errw io.Writer = &out, &errb
		if which == "stdout" {
			outw = &fullAfter{n: 3}
		} else {
			errw = &fullAfter{n: 3}
		}
		p := New(nil, outw, errw)
		p.Start(context.Background(), "things")
		ctx := p.Watch(context.Background())
		if ctx.Err() != nil {
			t.Fatalf("%s: ended before anything failed", which)
		}
		if which == "stdout" {
			io.WriteString(p.Out(), "a line of output\n")
			p.Flush()
		} else {
			fmt.Fprintln(p.Err(), "a note")
		}
		var lost *StreamError
		if ctx.Err() == nil || !errors.As(context.Cause(ctx), &lost) || lost.Stream != which {
			t.Errorf("%s lost: the job's context %v (cause %v)", which, ctx.Err(), context.Cause(ctx))
		}
		code := p.Finish(p.Fail(ctx.Err()))
		if code != ExitError || strings.Contains(errb.String(), "canceled") {
			t.Errorf("%s lost: exit %d, stderr %q", which, code, errb.String())
		}
	}
}

// TestLostStdoutUnderAShaperIsStdouts: with --jq or --template between the
// command and stdout, stdout refusing the shaped output is said as stdout's
// failure with the bytes it took, once, not as the expression's failure.
func TestLostStdoutUnderAShaperIsStdouts(t *testing.T) {
	var page []row
	for i := 0; i < 3000; i++ {
		page = append(page, row{Name: fmt.Sprintf("item %d", i), N: i})
	}
	for _, args := range [][]string{{"--jq", "."}, {"--jsonl", "--jq", ".name"}, {"--template", "{{range .}}{{.name}}\n{{end}}"}, {"--jsonl", "--template", "{{.name}}"}} {
		for _, room := range []int{0, 1, 5000, 20000} {
			w := &fullAfter{n: room}
			var errb bytes.Buffer
			p := New(nil, w, &errb)
			fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
			p.RegisterFlags(fs, nil)
			fs.Parse(args)
			p.Start(context.Background(), "things")
			_, err := List(context.Background(), p, fakeStream{pages: [][]row{page}, failAfter: -1}, rowsListing)
			code := p.Finish(p.Done(err))
			m := reLost.FindStringSubmatch(errb.String())
			if code != ExitError || m == nil || (room > 0 && atoi(m[2]) != w.got.Len()) {
				t.Errorf("%v with room for %d bytes (took %d): exit %d, stderr %q", args, room, w.got.Len(), code, errb.String())
			}
		}
	}
}
