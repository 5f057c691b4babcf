package printer

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/vaultdeck/vaultdeck/api"
)

// itemWriter prints listing items as the server sent them (--json: one
// array, an item a line; --jsonl: JSON Lines), each item's own bytes, never
// decoded and re-encoded: unknown fields survive and nothing is held back.
// The array's opening is written with the first item, never before: a
// script that reads stdout after a failed first answer finds nothing, not
// half a document.
type itemWriter struct {
	w       io.Writer
	mark    func() // an item's line ended (streams.itemEnd)
	lines   bool
	open    string
	n       int
	scratch []byte
	shaped  bool // the closing is "]" alone
}

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
	if iw.n > 1 && !iw.lines {
		iw.mark() // the line break ending the item before
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
		iw.mark()
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
		if _, err := io.WriteString(iw.w, "\n"); err != nil {
			return err
		}
		iw.mark() // the last item's line
	} else {
		closing = iw.open + closing
	}
	_, err := io.WriteString(iw.w, closing+"\n")
	return err
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

// WriteJSON prints v as indented JSON. encoding/json escapes C0 controls
// and invalid UTF-8 in strings, but neither C1 (U+0080..U+009F, escape
// introducers on some terminals) nor anything inside a json.RawMessage (the
// server's own bytes); jsonSafe escapes those too, keeping the indentation.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(jsonSafe(nil, buf.Bytes(), false))
	return err
}

// WriteJSONLine prints v as one line of JSON (NDJSON), escaped like
// WriteJSON (C1 controls, and invalid UTF-8 inside raw server bytes).
func WriteJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(jsonSafe(nil, b, true), '\n'))
	return err
}

// jsonItems prints a listing's items as JSON, each as the service sent it.
type jsonItems[T any] struct {
	l    Listing[T]
	p    *Printer
	prog *Progress
	iw   *itemWriter
}

func newJSONItems[T any](p *Printer, l Listing[T], prog *Progress) *jsonItems[T] {
	open := l.Open
	if open == "" {
		open = "["
	}
	shaped := p.shape != nil
	if shaped {
		open = "[" // --jq and --template see the items, not what wraps them
	}
	iw := &itemWriter{w: p.Out(), mark: p.io.itemEnd, lines: p.format() == JSONL, open: open, shaped: shaped}
	return &jsonItems[T]{l: l, p: p, prog: prog, iw: iw}
}

func (j *jsonItems[T]) raw(it api.RawItem) error {
	j.prog.item()
	return j.iw.raw(it)
}

func (j *jsonItems[T]) item(e *T, it api.RawItem) error {
	j.prog.item()
	if j.l.Keep != nil && !j.l.Keep(e) {
		return nil
	}
	return j.iw.raw(it)
}

func (j *jsonItems[T]) page() error {
	j.prog.page()
	return j.p.Flush()
}

func (j *jsonItems[T]) end(s api.Summary) error {
	closing := "]"
	if j.l.Close != nil {
		closing = j.l.Close(s, j.iw.n)
	}
	return j.iw.close(closing)
}

func (j *jsonItems[T]) failed(err error) error { return AfterItems(err, j.iw.n) }

func (j *jsonItems[T]) kept() int { return j.iw.n }
