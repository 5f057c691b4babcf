package cli

import (
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
)

// itemWriter prints listing items as the server sent them (--json: one
// array, an item a line; --jsonl: JSON Lines), each item's own bytes, never
// decoded and re-encoded: unknown fields survive and nothing is held back.
// The array's opening is written with the first item, never before: a
// script that reads stdout after a failed first answer finds nothing, not
// half a document.
type itemWriter struct {
	w       io.Writer
	lines   bool
	open    string
	n       int
	scratch []byte
	shaped  bool // the closing is "]" alone
}

// items prepares the JSON output of a listing; open is what precedes the
// items in an array (`[` or `{"items":[`), dropped for --jsonl.
func (r *runner) items(open string) *itemWriter {
	if r.p.Shaped() {
		open = "[" // --jq and --template see the items, not what wraps them
	}
	return &itemWriter{w: r.env.Stdout, lines: r.g.JSONL, open: open, shaped: r.p.Shaped()}
}

func (iw *itemWriter) item(raw []byte) error { return iw.raw(api.RawItem{Bytes: raw}) }

// raw writes one item; a plain one (api.RawItem) goes out as sent, with no
// second scan and no copy but the output buffer's.
func (iw *itemWriter) raw(it api.RawItem) error {
	sep := ",\n"
	switch {
	case iw.lines:
		sep = ""
	case iw.n == 0:
		sep = iw.open + "\n"
	}
	iw.n++
	if _, err := io.WriteString(iw.w, sep); err != nil {
		return err
	}
	out := it.Bytes
	if !it.Plain {
		iw.scratch = safeRaw(iw.scratch[:0], it.Bytes)
		out = iw.scratch
	}
	if _, err := iw.w.Write(out); err != nil {
		return err
	}
	if iw.lines {
		_, err := io.WriteString(iw.w, "\n")
		return err
	}
	return nil
}

// close ends the array with the closing text (`]` or `],"total":N}`); a
// complete listing without items is the whole empty document.
func (iw *itemWriter) close(closing string) error {
	if iw.lines {
		return nil
	}
	if iw.shaped {
		closing = "]"
	}
	if iw.n > 0 {
		closing = "\n" + closing
	} else {
		closing = iw.open + closing
	}
	_, err := io.WriteString(iw.w, closing+"\n")
	return err
}

// partial says, beside an error that ended a listing, how much of it is
// already on stdout: a script that sees exit 1 knows what it has.
type partial struct {
	err error
	n   int
}

func (p partial) Error() string {
	if p.n == 1 {
		return p.err.Error() + " (1 item was written before this error)"
	}
	return fmt.Sprintf("%s (%s written before this error)", p.err, plural.Count(p.n, "item was", "items were"))
}

func (p partial) Unwrap() error { return p.err }

// afterItems wraps err with the count of items written, when there are any.
func afterItems(err error, n int) error {
	if err == nil || n == 0 {
		return err
	}
	return partial{err, n}
}

// safeRaw appends raw to dst, fit for a terminal and one line, and valid
// UTF-8 JSON: the server's whitespace between tokens removed when it has
// line breaks, control characters (raw ones are invalid JSON but a lenient
// decoder lets them by), DEL and C1 controls (U+0080..U+009F, escape
// introducers on some terminals) written as \u escapes, and bytes that are
// not UTF-8 (a lone 0x9b is CSI on 8-bit terminals) as \ufffd. Everything
// else is as the server sent it. The common case, nothing to change, is
// one scan and a UTF-8 check.
func safeRaw(dst, raw []byte) []byte { return jsonSafe(dst, raw, true) }

func jsonSafe(dst, raw []byte, oneLine bool) []byte {
	clean := true
	for _, c := range raw {
		if c < 0x20 || c == 0x7f || c == 0xC2 {
			clean = false
			break
		}
	}
	if clean && utf8.Valid(raw) {
		return append(dst, raw...)
	}
	in := false
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case in && c == '\\' && i+1 < len(raw) && raw[i+1] < 0x80 && raw[i+1] >= 0x20:
			dst = append(dst, c, raw[i+1])
			i += 2
			continue
		case c == '"':
			in = !in
		case oneLine && !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			i++
			continue
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
		case c < 0x20 || c == 0x7f:
			dst = appendEscape(dst, rune(c))
			i++
			continue
		case c >= 0x80:
			r, size := utf8.DecodeRune(raw[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				dst = append(dst, `\ufffd`...)
			case r >= 0x80 && r <= 0x9f:
				dst = appendEscape(dst, r)
			default:
				dst = append(dst, raw[i:i+size]...)
			}
			i += size
			continue
		}
		dst = append(dst, c)
		i++
	}
	return dst
}

// appendEscape appends the JSON escape of a character below U+0100
// (\u00XX), without fmt: a hostile listing can have one in every item.
func appendEscape(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', '0', '0', hex[r>>4&15], hex[r&15])
}

// progress is the status line of a long listing on a terminal's stderr:
// pages and items so far, and the waits (budget, Retry-After) that would
// otherwise look like a hang. Counts are drawn only when stdout is not the
// same terminal (the rows themselves show progress there); wait lines are
// always shown on a terminal. It writes to the real stderr: its text is the
// program's own, never the server's.
type progress struct {
	mu           sync.Mutex
	w            io.Writer
	counts, on   bool
	pages, items int
	drawn        bool
	last         time.Time
}

func (r *runner) listProgress() *progress {
	p := &progress{w: r.orig.Stderr}
	p.on = r.p.StderrIsTerminal()
	p.counts = p.on && !r.p.StdoutIsTerminal()
	return p
}

// stderrIsTerminal looks at the real stderr.
func (r *runner) stderrIsTerminal() bool { return r.p.StderrIsTerminal() }

// observe is the wait observer of a command's requests.
func (p *progress) observe(w api.Wait) {
	if w.For < time.Second {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on {
		return
	}
	p.clear()
	fmt.Fprintf(p.w, "vaultdeck: %s\n", w)
}

func (p *progress) page() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pages++
	p.draw(true)
}

func (p *progress) item() {
	p.items++
	if p.items%4096 == 0 {
		p.mu.Lock()
		p.draw(false)
		p.mu.Unlock()
	}
}

func (p *progress) draw(force bool) {
	if !p.counts || (!force && time.Since(p.last) < 100*time.Millisecond) {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.w, "\r\x1b[K%s", plural.Count(p.items, "item"))
	if p.pages > 1 {
		fmt.Fprintf(p.w, ", %s", plural.Count(p.pages, "page"))
	}
	p.drawn = true
}

func (p *progress) clear() {
	if p.drawn {
		io.WriteString(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// done removes the status line.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
}

// jsonOut reports whether the command prints JSON (--json or --jsonl).
func (r *runner) jsonOut() bool { return r.g.JSON || r.g.JSONL }

// listing prints a paged listing as it arrives: each page's rows (aligned
// on the columns the header and first page set, the header once; CSV
// records with --csv) or items, flushed to stdout before the next page is
// asked for, with the progress line on a terminal.
type listing struct {
	r       *runner
	p       *progress
	iw      *itemWriter
	t       *table   // --csv
	cols    *columns // text
	headers []string
	n       int // items written, for the message of a later failure
}

func (r *runner) listing(open string, headers ...string) *listing {
	l := &listing{r: r, p: r.listProgress(), headers: headers}
	switch {
	case r.jsonOut():
		l.iw = r.items(open)
	case !r.g.CSV:
		l.cols = &columns{w: r.env.Stdout}
	}
	return l
}

// page prints n items: raw(i) for JSON, cells(i) for the table.
func (l *listing) page(n int, raw func(int) []byte, cells func(int) []string) error {
	var rows [][]string
	if l.cols != nil && l.cols.widths == nil && n > 0 {
		rows = append(rows, cleanRow(l.headers))
	}
	for i := range n {
		l.p.item()
		l.n++
		if l.cols != nil {
			rows = append(rows, cleanRow(cells(i)))
			continue
		}
		if l.iw != nil {
			if err := l.iw.item(raw(i)); err != nil {
				return err
			}
			continue
		}
		if l.t == nil {
			l.t = l.r.table(l.headers...)
		}
		l.t.row(cells(i)...)
	}
	if len(rows) > 0 {
		if err := l.cols.block(rows); err != nil {
			return err
		}
	}
	if l.t != nil {
		if err := l.t.flush(); err != nil {
			return err
		}
		l.t = l.t.more() // same writer; the header is not repeated
	}
	l.p.page()
	return l.r.flushOut()
}

// end closes the output after the last page, or reports err.
func (l *listing) end(err error, closing string) int {
	l.p.done()
	if err != nil {
		return l.r.fail(afterItems(err, l.n))
	}
	if l.iw != nil {
		return l.r.done(l.iw.close(closing))
	}
	if l.cols != nil {
		if l.cols.widths == nil { // no page had a row: the header alone
			return l.r.done(l.cols.block([][]string{cleanRow(l.headers)}))
		}
		return ExitOK
	}
	if l.t == nil { // no page had a row: the header alone
		l.t = l.r.table(l.headers...)
	}
	return l.r.done(l.t.flush())
}

// flushOut pushes the stdout buffer through, page by page.
func (r *runner) flushOut() error {
	if f, ok := r.env.Stdout.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}
