package widgets

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dustin/go-humanize"
	"github.com/vaultdeck/vaultdeck/api/plural"
)

// JSONLimits bound what BoundedJSON draws of one document, so that what a
// server sends decides the time and memory of a frame only up to a fixed
// size: json.Indent of an audit entry nested 9,000 deep (54 KB) wrote 81 MB
// of indentation, which the pane then wrapped and split, 2 GB in all.
type JSONLimits struct {
	Depth  int // levels drawn; a container deeper collapses to one line
	Items  int // keys or elements drawn of one container; the rest are counted
	String int // bytes drawn of one string, number or key
	Bytes  int // bytes drawn in all; past them the rest is counted, not drawn
}

// DetailJSON is the bound of the detail panes: a screenful of any entry
// seen in practice whole, and a hostile one in well under a megabyte.
var DetailJSON = JSONLimits{Depth: 12, Items: 200, String: 2 << 10, Bytes: 128 << 10}

// BoundedJSON pretty-prints raw with prefix before every line and two
// spaces an indent level, drawing no more than lim allows: a container past
// the depth becomes `{…} 3 keys, 4.1 kB`, a long string ends in `…` and
// the number of bytes left out, a container's items past the limit become
// one line counting them, and past the byte budget one last line counts
// what was not drawn. It reads raw once and allocates only the output.
// partial reports whether anything was left out. Invalid JSON is drawn as
// text, cut the same way. Escape sequences are left as they were sent
// (\u001b stays six characters); the caller sanitises the result.
func BoundedJSON(raw []byte, prefix string, lim JSONLimits) (text string, partial bool) {
	raw = bytes.TrimSpace(raw)
	w := &jsonWriter{src: raw, lim: lim, prefix: prefix}
	if !json.Valid(raw) {
		// json.Valid refuses nesting past 10,000 as well: drawn as text, an
		// eighth of the budget (one wrapped line, so it fills screens fast)
		shown, rest := cutText(raw, lim.Bytes/8)
		w.b.WriteString(prefix)
		w.b.Write(shown)
		if rest > 0 {
			w.b.WriteString("… (" + humanize.Bytes(uint64(rest)) + " more, not valid JSON)")
			w.partial = true
		}
		return w.b.String(), w.partial
	}
	w.b.WriteString(prefix)
	w.value(0)
	if w.full {
		w.newline(0)
		w.b.WriteString("… " + humanize.Bytes(uint64(len(raw)-w.pos)) + " of " + humanize.Bytes(uint64(len(raw))) + " not drawn")
	}
	return w.b.String(), w.partial
}

type jsonWriter struct {
	src    []byte
	pos    int
	lim    JSONLimits
	prefix string
	b      strings.Builder
	// full: the byte budget is spent; every level returns at once, leaving
	// pos where drawing stopped (the rest is counted in the last line)
	full    bool
	partial bool
}

func (w *jsonWriter) ws() {
	for w.pos < len(w.src) {
		switch w.src[w.pos] {
		case ' ', '\t', '\n', '\r':
			w.pos++
		default:
			return
		}
	}
}

func (w *jsonWriter) newline(depth int) {
	w.b.WriteByte('\n')
	w.b.WriteString(w.prefix)
	for range depth {
		w.b.WriteString("  ")
	}
}

// value draws the value at pos (the source is valid JSON) and moves past it.
// Recursion stops at lim.Depth: deeper containers are skipped by a loop.
func (w *jsonWriter) value(depth int) {
	w.ws()
	if w.full || w.b.Len() >= w.lim.Bytes {
		w.full, w.partial = true, true
		return
	}
	switch c := w.src[w.pos]; c {
	case '{', '[':
		w.container(depth, c)
	case '"':
		w.token(w.stringEnd(w.pos))
	default:
		end := w.pos
		for end < len(w.src) && !endsLiteral(w.src[end]) {
			end++
		}
		w.token(end)
	}
}

// token draws src[pos:end] (a string with its quotes, or a literal), cut
// to lim.String bytes at a character and escape boundary.
func (w *jsonWriter) token(end int) {
	tok := w.src[w.pos:end]
	w.pos = end
	if len(tok) <= w.lim.String {
		w.b.Write(tok)
		return
	}
	shown, rest := cutText(tok, w.lim.String)
	w.b.Write(shown)
	w.b.WriteString("… (" + humanize.Bytes(uint64(rest)) + " more)")
	w.partial = true
}

func (w *jsonWriter) container(depth int, open byte) {
	closer, unit := byte('}'), "key"
	if open == '[' {
		closer, unit = ']', "item"
	}
	if depth >= w.lim.Depth {
		start := w.pos
		n := w.skip()
		w.b.WriteString(string(open) + "…" + string(closer) + " " + plural.Count(n, unit) + ", " +
			humanize.Bytes(uint64(w.pos-start)) + " (deeper than " + strconv.Itoa(w.lim.Depth) + " levels)")
		w.partial = true
		return
	}
	w.pos++ // the opening bracket
	w.b.WriteByte(open)
	w.ws()
	if w.src[w.pos] == closer {
		w.pos++
		w.b.WriteByte(closer)
		return
	}
	for i := 0; ; i++ {
		if i == w.lim.Items {
			start := w.pos
			n := w.skipItems() + 1
			w.newline(depth + 1)
			w.b.WriteString("… " + plural.Count(n, "more "+unit, "more "+plural.Noun(n, unit)) + ", " + humanize.Bytes(uint64(w.pos-start)))
			w.partial = true
			w.newline(depth)
			w.b.WriteByte(closer)
			return
		}
		w.newline(depth + 1)
		if open == '{' {
			w.ws()
			w.token(w.stringEnd(w.pos))
			w.ws()
			w.pos++ // the colon
			w.b.WriteString(": ")
		}
		w.value(depth + 1)
		if w.full {
			return
		}
		w.ws()
		if w.src[w.pos] == closer {
			w.pos++
			w.newline(depth)
			w.b.WriteByte(closer)
			return
		}
		w.pos++ // the comma
		w.b.WriteByte(',')
	}
}

// skip moves past the container at pos and returns how many items it holds.
func (w *jsonWriter) skip() int {
	w.pos++
	closer := byte('}')
	if w.src[w.pos-1] == '[' {
		closer = ']'
	}
	w.ws()
	if w.src[w.pos] == closer {
		w.pos++
		return 0
	}
	return w.skipItems() + 1
}

// skipItems moves past the rest of a container (pos is inside it, at an
// item or a comma), counting the commas at its own level: the items left
// after the one at pos.
func (w *jsonWriter) skipItems() int {
	depth, n := 0, 0
	for w.pos < len(w.src) {
		switch c := w.src[w.pos]; c {
		case '"':
			w.pos = w.stringEnd(w.pos)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				w.pos++
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
		w.pos++
	}
	return n
}

// stringEnd is the index after the closing quote of the string at i.
func (w *jsonWriter) stringEnd(i int) int {
	for i++; i < len(w.src); {
		j := bytes.IndexAny(w.src[i:], `"\`)
		if j < 0 {
			return len(w.src)
		}
		i += j
		if w.src[i] == '"' {
			return i + 1
		}
		i += 2
	}
	return len(w.src)
}

// cutText is the longest start of b within n bytes that ends at a
// character and outside a JSON escape, and how many bytes are left.
func cutText(b []byte, n int) ([]byte, int) {
	if len(b) <= n {
		return b, 0
	}
	i := 0
	for i < len(b) {
		step := 1
		switch {
		case b[i] == '\\' && i+1 < len(b) && b[i+1] == 'u':
			step = 6
		case b[i] == '\\':
			step = 2
		case b[i] >= utf8.RuneSelf:
			_, step = utf8.DecodeRune(b[i:])
		}
		if i+step > n {
			break
		}
		i += step
	}
	return b[:i], len(b) - i
}

func endsLiteral(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
