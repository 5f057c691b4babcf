package topics

import (
	"fmt"
	"strings"
)

// Man is the topic as a man(7) page in section 7 (miscellaneous), named
// vaultdeck-NAME: `man 7 vaultdeck-audit`. The first heading is the page's
// title, so it is not repeated; ## are sections, ### subsections.
func (t Topic) Man() string { return manOf(t, t.Markdown()) }

func manOf(t Topic, md string) string {
	var b strings.Builder
	title := "vaultdeck-" + t.Name
	fmt.Fprintf(&b, ".TH %q 7 \"\" \"vaultdeck\" \"vaultdeck manual\"\n", strings.ToUpper(title))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", Roff(title), Roff(t.Short)) // \- : the dash man(7) expects there
	section := false
	for i, bl := range parse(md) {
		switch bl.kind {
		case heading:
			switch {
			case bl.level == 1 && i == 0:
				continue
			case bl.level <= 2:
				fmt.Fprintf(&b, ".SH %s\n", quoted(strings.ToUpper(plainText(bl.text))))
				section = true
			default:
				fmt.Fprintf(&b, ".SS %s\n", quoted(plainText(bl.text)))
			}
		case paragraph:
			if !section { // text before the first heading
				b.WriteString(".SH DESCRIPTION\n")
				section = true
			}
			b.WriteString(".PP\n" + roffSpans(bl.text) + "\n")
		case item:
			if bl.level > 0 {
				b.WriteString(".RS 4\n")
			}
			bullet := `\(bu`
			if bl.marker != "" {
				bullet = bl.marker
			}
			b.WriteString(".IP " + bullet + " 4\n" + roffSpans(bl.text) + "\n")
			if bl.level > 0 {
				b.WriteString(".RE\n")
			}
		case code: // as typed: no filling, no adjusting
			b.WriteString(".PP\n.RS 4\n.nf\n")
			for _, l := range bl.lines {
				b.WriteString(Roff(l) + "\n")
			}
			b.WriteString(".fi\n.RE\n")
		case table:
			manTable(&b, bl.rows)
		}
	}
	fmt.Fprintf(&b, ".SH SEE ALSO\n%s\n", Roff("vaultdeck(1), vaultdeck help "+t.Name))
	return b.String()
}

// manTable is writeTable's list in roff: a tagged paragraph per row.
func manTable(b *strings.Builder, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	header := rows[0]
	for _, row := range rows[1:] {
		label := ""
		if len(row) > 0 {
			label = row[0]
		}
		fmt.Fprintf(b, ".TP\n\\fB%s\\fR\n", Roff(plainText(label)))
		for c := 1; c < len(row); c++ {
			if c > 1 {
				b.WriteString(".br\n")
			}
			cell := roffSpans(row[c])
			if len(header) > 2 && c < len(header) && header[c] != "" {
				cell = Roff(plainText(header[c])) + ": " + cell
			}
			b.WriteString(cell + "\n")
		}
	}
}

// roffSpans is text in roff with its `code` and **strong** spans bold.
func roffSpans(text string) string {
	var b strings.Builder
	for _, sp := range spans(text) {
		if sp.strong || sp.code {
			b.WriteString(`\fB` + Roff(sp.text) + `\fR`)
			continue
		}
		b.WriteString(Roff(sp.text))
	}
	// A filled line that starts with a dot or a quote would be a request.
	return lineStarts(b.String())
}

// Roff makes text inert for roff: backslashes escaped and no line starting
// with a control character. Hyphens stay plain, so a search for
// "max-rate" in the page finds them. A character beyond ASCII is written as
// its \[uXXXX] escape, which every troff reads whatever the page's encoding
// ("…", "—", "≥" are in the texts).
func Roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	if strings.IndexFunc(s, func(r rune) bool { return r > 0x7e }) >= 0 {
		var b strings.Builder
		for _, r := range s {
			if r > 0x7e {
				fmt.Fprintf(&b, `\[u%04X]`, r)
				continue
			}
			b.WriteRune(r)
		}
		s = b.String()
	}
	return lineStarts(s)
}

func lineStarts(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}

// quoted is a macro argument: in double quotes, its own quotes doubled.
func quoted(s string) string { return `"` + strings.ReplaceAll(Roff(s), `"`, `""`) + `"` }
