package topics

import "strings"

// kind is what a block of a topic is.
type kind int

const (
	heading   kind = iota // level 1-3, text
	paragraph             // text, its lines joined by spaces
	item                  // a list item: level (0 top), text
	code                  // lines as written
	table                 // rows of cells, the header first
)

type block struct {
	kind   kind
	level  int
	marker string // an item's: "" for a bullet, "1." for a numbered one
	text   string
	lines  []string   // code
	rows   [][]string // table
}

// parse reads the subset of Markdown the topics are written in. Anything it
// does not know is a paragraph, so nothing written is ever lost.
func parse(md string) []block {
	var out []block
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	// open is the paragraph or item that the next plain line continues.
	open := -1
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimSpace(l)
		switch {
		case trimmed == "":
			open = -1
		case strings.HasPrefix(trimmed, "<!--"): // a marker for tests, not for readers
			for ; i < len(lines) && !strings.Contains(lines[i], "-->"); i++ {
			}
			open = -1
		case strings.HasPrefix(trimmed, "```"):
			b := block{kind: code}
			for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
				b.lines = append(b.lines, lines[i])
			}
			out = append(out, b)
			open = -1
		case strings.HasPrefix(l, "#"):
			level := len(l) - len(strings.TrimLeft(l, "#"))
			out = append(out, block{kind: heading, level: min(level, 3), text: strings.TrimSpace(l[level:])})
			open = -1
		case strings.HasPrefix(trimmed, "|"):
			if len(out) == 0 || out[len(out)-1].kind != table || open != len(out)-1 {
				out = append(out, block{kind: table})
				open = len(out) - 1
			}
			if cells := splitRow(trimmed); !isRule(cells) {
				out[open].rows = append(out[open].rows, cells)
			}
		case isItem(l):
			indent := len(l) - len(strings.TrimLeft(l, " "))
			marker, text, _ := strings.Cut(trimmed, " ")
			if marker == "-" || marker == "*" {
				marker = ""
			}
			out = append(out, block{kind: item, level: indent / 2, marker: marker, text: strings.TrimSpace(text)})
			open = len(out) - 1
		case open >= 0 && out[open].kind != table:
			out[open].text += " " + trimmed
		default:
			out = append(out, block{kind: paragraph, text: trimmed})
			open = len(out) - 1
		}
	}
	return out
}

// isItem: "- text", "* text" or "1. text", indented by two spaces a level.
func isItem(l string) bool {
	t := strings.TrimLeft(l, " ")
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") {
		return true
	}
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	return digits > 0 && digits < 3 && strings.HasPrefix(t[digits:], ". ")
}

// splitRow cuts "| a | b \| c |" into its cells ("b | c": an escaped bar
// belongs to the cell).
func splitRow(row string) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cur.WriteByte('|')
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// isRule: the |---|:---| line under a table's header.
func isRule(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" {
			return false
		}
	}
	return true
}

// span is a run of inline text: plain, `code` or **strong**.
type span struct {
	text   string
	code   bool // a literal: bold in man, as man draws literals; plain on a terminal
	strong bool
}

// spans cuts text at its `code` and **strong** marks, and turns a link
// [text](url) into "text (url)". An unclosed mark is kept as text.
func spans(text string) []span {
	var out []span
	plain := func(s string) {
		if s != "" {
			out = append(out, span{text: links(s)})
		}
	}
	for text != "" {
		i := strings.IndexAny(text, "`*")
		if i < 0 {
			plain(text)
			break
		}
		mark := text[i : i+1]
		if mark == "*" {
			if !strings.HasPrefix(text[i:], "**") {
				plain(text[:i+1])
				text = text[i+1:]
				continue
			}
			mark = "**"
		}
		end := strings.Index(text[i+len(mark):], mark)
		if end < 0 {
			plain(text)
			break
		}
		plain(text[:i])
		inner := text[i+len(mark) : i+len(mark)+end]
		if mark == "**" { // a literal inside bold is bold too
			inner = strings.ReplaceAll(links(inner), "`", "")
		}
		out = append(out, span{text: inner, code: mark == "`", strong: mark == "**"})
		text = text[i+len(mark)+end+len(mark):]
	}
	return out
}

// links writes [text](url) as "text (url)".
func links(s string) string {
	for {
		i := strings.Index(s, "](")
		open := strings.LastIndex(s[:max(i, 0)], "[")
		if i < 0 || open < 0 {
			return s
		}
		end := strings.Index(s[i:], ")")
		if end < 0 {
			return s
		}
		s = s[:open] + s[open+1:i] + " (" + s[i+2:i+end] + ")" + s[i+end+1:]
	}
}
