// Package rule is the one meaning of --filter TEXT and --sort COLUMN[,desc]
// over a listing's output record (its CSV record's cells): the command
// line's printer applies it to the items it writes, and the console's
// views apply it to their export records to know whether a `/` filter or a
// sort on screen is exactly what the flags would list (issue 42). One
// implementation, so the two faces cannot drift apart.
package rule

import (
	"fmt"
	"strconv"
	"strings"
)

// Match reports whether one of cells contains text, case-insensitively
// (as the console's `/` filter reads a row's cells). Empty text matches
// every record.
func Match(cells []string, text string) bool {
	if text == "" {
		return true
	}
	q := strings.ToLower(text)
	for _, c := range cells {
		if strings.Contains(strings.ToLower(c), q) {
			return true
		}
	}
	return false
}

// Compare orders two cells of one column: as numbers when both are
// numbers (sizes, counts, as a CSV writes them), else as text without
// regard to case (RFC 3339 UTC times order as text). 0: equal, and a
// stable sort keeps the listing's own order.
func Compare(a, b string) int {
	if x, err := strconv.ParseFloat(a, 64); err == nil {
		if y, err := strconv.ParseFloat(b, 64); err == nil {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
	}
	return strings.Compare(strings.ToLower(a), strings.ToLower(b))
}

// Sort is a parsed --sort: the record's column Col, descending when Desc.
type Sort struct {
	Col  int
	Desc bool
}

// Compare is the order of two records under s: Compare of column Col,
// reversed when Desc (a tie stays 0: the listing's order).
func (s Sort) Compare(a, b []string) int {
	var x, y string
	if s.Col < len(a) {
		x = a[s.Col]
	}
	if s.Col < len(b) {
		y = b[s.Col]
	}
	v := Compare(x, y)
	if s.Desc {
		return -v
	}
	return v
}

// Name is how a flag spells header: lower case, words joined by "-",
// a bracketed note ("(UTC)") left out: "deleted at (UTC)" is deleted-at.
func Name(header string) string {
	h := strings.ToLower(header)
	if i := strings.Index(h, "("); i > 0 {
		h = h[:i]
	}
	return strings.Join(strings.FieldsFunc(h, func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "-")
}

// Spell is the --sort value for column col of header (desc: ",desc").
func Spell(header []string, col int, desc bool) string {
	v := Name(header[col])
	if desc {
		v += ",desc"
	}
	return v
}

// ParseSort reads COLUMN[,asc|desc] against a listing's header: COLUMN is
// a header's Name or the header itself, in any case.
func ParseSort(spec string, header []string) (Sort, error) {
	name, dir, _ := strings.Cut(spec, ",")
	var s Sort
	switch strings.ToLower(strings.TrimSpace(dir)) {
	case "", "asc":
	case "desc":
		s.Desc = true
	default:
		return Sort{}, fmt.Errorf("--sort %q: the direction after the comma is asc or desc", spec)
	}
	want := Name(name)
	for i, h := range header {
		if Name(h) == want && want != "" {
			s.Col = i
			return s, nil
		}
	}
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = Name(h)
	}
	return Sort{}, fmt.Errorf("--sort %q: no such column; the columns are %s", name, strings.Join(names, ", "))
}
