package widgets

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// binLike is the recycle bin's shape: a name, an e-mail, a date, a
// countdown, a count and a flag.
var binLike = []Column{
	{Title: "project", Width: 16, Min: 10, Grow: 3, Priority: 3, Elide: ElideMiddle},
	{Title: "deleted by", Width: 14, Min: 8, Grow: 2, Priority: 2, Elide: ElideEmail},
	{Title: "deleted at", Width: 16, Min: 5, Priority: 0, Elide: ElideDate},
	{Title: "purge in", Width: 9, Priority: 1},
	{Title: "files", Width: 6, Priority: 0},
	{Title: "kb", Width: 2, Priority: 0},
	{Title: "project id", ExportOnly: true},
}

func TestLayoutWidths(t *testing.T) {
	cases := []struct {
		name  string
		need  []int
		avail int
		want  []int
	}{
		// the names need 30 and 12: the date gives its year, then its
		// time, before the name is cut
		{"80 columns, long names", []int{30, 12, 0, 0, 0, 0, 0}, 78, []int{31, 14, 11, 9, 6, 2, 0}},
		{"120 columns: spare by Grow", []int{30, 12, 0, 0, 0, 0, 0}, 118, []int{52, 28, 16, 9, 6, 2, 0}},
		{"short names: the spare by Grow", []int{8, 8, 0, 0, 0, 0, 0}, 78, []int{23, 17, 16, 9, 6, 2, 0}},
		// 58: minimums (10+8+5+9+6+2 = 40 + 5 separators) fit, but the
		// name is whole before a low column shows: the kb flag, the
		// counts and the date go (rightmost first), then the name gives
		// back what the line still lacks, the e-mail keeping the 12 its
		// local parts need and the countdown (priority 1) staying
		{"60 columns", []int{40, 12, 0, 0, 0, 0, 0}, 58, []int{35, 12, 0, 9, 0, 0, 0}},
		// 78 and names of 50: the date shortens to its day and the flag
		// and the counts go before the name is cut (the bin read
		// "Bellhaven Shipping…ight — Refinancing" beside them)
		{"80 columns, names of 50", []int{50, 11, 0, 0, 0, 0, 0}, 78, []int{50, 11, 5, 9, 0, 0, 0}},
		// 30: the lowest priorities go, rightmost first: kb, files, the date
		{"30 columns", []int{40, 12, 0, 0, 0, 0, 0}, 30, []int{11, 8, 0, 9, 0, 0, 0}},
		{"10 columns: the name alone", []int{40, 12, 0, 0, 0, 0, 0}, 10, []int{10, 0, 0, 0, 0, 0, 0}},
		{"4 columns: the name squeezed", []int{40, 12, 0, 0, 0, 0, 0}, 4, []int{4, 0, 0, 0, 0, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := layoutWidths(binLike, c.need, nil, c.avail)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("layoutWidths(%d) = %v, want %v", c.avail, got, c.want)
			}
			if tot := total(got); tot > c.avail {
				t.Errorf("total %d over %d", tot, c.avail)
			}
		})
	}
}

func total(w []int) int {
	s, k := 0, 0
	for _, v := range w {
		if v > 0 {
			s += v
			k++
		}
	}
	return s + max(k-1, 0)
}

// TestLayoutNeverOverflows: whatever the columns, needs and width, the
// line (columns and separators) fits the screen.
func TestLayoutNeverOverflows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		cols := make([]Column, 1+rng.IntN(8))
		need := make([]int, len(cols))
		for i := range cols {
			cols[i] = Column{Width: rng.IntN(30), Min: rng.IntN(20), Grow: rng.IntN(3), Max: rng.IntN(50),
				Priority: rng.IntN(4), ExportOnly: rng.IntN(8) == 0}
			need[i] = rng.IntN(80)
		}
		avail := rng.IntN(200)
		w := layoutWidths(cols, need, nil, avail)
		if tot := total(w); tot > avail {
			t.Fatalf("cols %+v need %v avail %d: widths %v total %d", cols, need, avail, w, tot)
		}
		for i, c := range cols {
			if c.ExportOnly && w[i] != 0 {
				t.Fatalf("export-only column %d drawn %d wide", i, w[i])
			}
		}
	}
}

func TestElide(t *testing.T) {
	cases := []struct {
		in   string
		w    int
		mode Elide
		want string
	}{
		{"Bellhaven Shipping v. Brandt Logistics", 23, ElideMiddle, "Bellhaven S…t Logistics"},
		{"Bellhaven Shipping v. Brandt Logistics", 23, ElideEnd, "Bellhaven Shipping v. …"},
		{"short", 23, ElideMiddle, "short"},
		{"2026-11-26 14:05", 16, ElideDate, "2026-11-26 14:05"},
		{"2026-11-26 14:05", 15, ElideDate, "11-26 14:05"},
		{"2026-11-26 14:05", 10, ElideDate, "11-26"},
		{"2025-06-01 09:15:28", 18, ElideDate, "06-01 09:15:28"},
		{"2025-06-01 09:15:28", 13, ElideDate, "06-01 09:15"},
		{"2026-11-26 14:05", 4, ElideDate, "202…"},
		{"not a date at all", 8, ElideDate, "not a d…"},
		{"2025-01-01", 10, ElideDate, "2025-01-01"},
		{"2025-01-01", 9, ElideDate, "01-01"},
		{"2025-01-01", 4, ElideDate, "202…"},
		{"契約書ドラフト最終版", 9, ElideMiddle, "契約…終版"},
	}
	for _, c := range cases {
		got := elide(c.in, c.w, c.mode)
		if got != c.want {
			t.Errorf("elide(%q, %d, %d) = %q, want %q", c.in, c.w, c.mode, got, c.want)
		}
		if sw := ansi.StringWidth(got); sw > c.w {
			t.Errorf("elide(%q, %d) is %d wide", c.in, c.w, sw)
		}
	}
}

// TestElideColumnKeepsNamesApart: the two projects, cut to the
// same start, come out different; and, as a property, distinct cells that
// some split of the width tells apart never render identically.
func TestElideColumnKeepsNamesApart(t *testing.T) {
	a, b := "Bellhaven Shipping v. Brandt", "Bellhaven Shipping v. Brightwater Tankers"
	got := elideColumn([]string{a, b}, 22, ElideEnd)
	if got[0] == got[1] {
		t.Errorf("two projects read the same: %q", got)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alpha := []string{"a", "b", " ", "v.", "—", "契"}
	word := func() string {
		var s strings.Builder
		for range 5 + rng.IntN(30) {
			s.WriteString(alpha[rng.IntN(len(alpha))])
		}
		return s.String()
	}
	for range 3000 {
		prefix := word()
		cells := make([]string, 2+rng.IntN(6))
		for i := range cells {
			cells[i] = prefix + word()
		}
		w := 3 + rng.IntN(30)
		mode := Elide(rng.IntN(2))
		out := elideColumn(cells, w, mode)
		for i := range out {
			if sw := ansi.StringWidth(out[i]); sw > w {
				t.Fatalf("%q cut to %d is %d wide: %q", cells[i], w, sw, out[i])
			}
			for j := range i {
				if out[i] == out[j] && cells[i] != cells[j] && distinguishable(cells, w) {
					t.Fatalf("width %d: %q and %q both read %q", w, cells[i], cells[j], out[i])
				}
			}
		}
	}
}

// distinguishable reports whether one split of w tells all cells apart.
func distinguishable(cells []string, w int) bool {
	idx := make([]int, len(cells))
	for i := range idx {
		idx[i] = i
	}
	_, ok := splitApart(cells, idx, w)
	return ok
}

func TestCommonDomain(t *testing.T) {
	cases := []struct {
		addrs []string
		want  string
	}{
		{[]string{"a@x.law", "b@x.law", "c@y.com"}, "x.law"},
		{[]string{"a@x.law", "b@y.com"}, ""},                       // no domain dominant
		{[]string{"a@x.law"}, "x.law"},                             // every address shares it, however few
		{[]string{"a@x.law", "", "-"}, "x.law"},                    // blanks are not addresses
		{[]string{"a@x.law", "b@x.law", "c@y.com", "d@y.com"}, ""}, // half is not most
		{[]string{"", "-", "a@x.law", "b@x.law"}, "x.law"},         // blanks are not addresses
	}
	for _, c := range cases {
		if got := commonDomain(c.addrs); got != c.want {
			t.Errorf("commonDomain(%q) = %q, want %q", c.addrs, got, c.want)
		}
	}
	if got := stripDomain("m.castellano@x.law", "x.law"); got != "m.castellano" {
		t.Errorf("strip: %q", got)
	}
	if got := stripDomain("m.castellano@y.law", "x.law"); got != "m.castellano@y.law" {
		t.Errorf("another domain stays: %q", got)
	}
}

// TestTableShowsDomainOnce: an e-mail column names the common domain in
// its header and drops it from the rows; others keep theirs.
func TestTableShowsDomainOnce(t *testing.T) {
	tb := NewTable(testTheme(t), keysForTest(), 1, []Column{
		{Title: "name", Width: 10, Grow: 1, Priority: 2, Elide: ElideMiddle},
		{Title: "by", Width: 12, Grow: 1, Priority: 1, Elide: ElideEmail},
	})
	tb.SetRows([]Row{
		{ID: "1", Cells: []string{"one", "m.castellano@harrowgate-law.com"}},
		{ID: "2", Cells: []string{"two", "z.lombardi@harrowgate-law.com"}},
		{ID: "3", Cells: []string{"three", "guest@outside.org"}},
	})
	tb.SetSize(80, 8)
	v := tb.View()
	if strings.Count(v, "harrowgate-law.com") != 1 || !strings.Contains(v, "by @harrowgate-law.com ") {
		t.Errorf("the domain is not shown once in the header:\n%s", v)
	}
	if !strings.Contains(v, "m.castellano ") || !strings.Contains(v, "guest@outside.org") {
		t.Errorf("rows:\n%s", v)
	}
	// too narrow for the title and the domain: the info line says it once
	tb.SetSize(34, 8)
	if v = tb.View(); strings.Count(v, "@harrowgate-law.com") != 1 || !strings.Contains(v, "e-mails @harrowgate-law.com") {
		t.Errorf("at 34 columns the domain is not said once:\n%s", v)
	}
}

// BenchmarkTableView is a frame of a 200k-row table whose names need
// cutting (the layout and the elision run for the visible window only).
func BenchmarkTableView(b *testing.B) {
	tb := NewTable(testTheme(b), keysForTest(), 1, binLike)
	rows := make([]Row, 200000)
	for i := range rows {
		rows[i] = Row{ID: fmt.Sprint(i), Cells: []string{
			fmt.Sprintf("Bellhaven Shipping v. Brandt Logistics %06d", i), fmt.Sprintf("user%d@harrowgate-law.com", i%50),
			"2026-11-26 14:05", "3d", "12", ""}}
	}
	tb.SetRows(rows)
	tb.SetSize(80, 24)
	b.ResetTimer()
	for range b.N {
		_ = tb.View()
	}
}

func keysForTest() keys.Map { return keys.New(false) }

// The rule k9s and gh-dash users expect (issue 29's leftover): a named
// column (the one people read) is whole before a low-priority column
// shows; the low ones go first. Whatever the columns, needs and width: a
// low column drawn means every named column has what it needs.
func TestNameWholeBeforeALowColumnShows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		cols := make([]Column, 2+rng.IntN(7))
		need := make([]int, len(cols))
		for i := range cols {
			cols[i] = Column{Width: 1 + rng.IntN(20), Min: rng.IntN(12), Grow: rng.IntN(3), Priority: rng.IntN(4)}
			need[i] = rng.IntN(70)
		}
		avail := rng.IntN(200)
		w := layoutWidths(cols, need, nil, avail)
		lowShown := false
		for i, c := range cols {
			lowShown = lowShown || c.Priority <= 0 && w[i] > 0
		}
		for i, c := range cols {
			if named := c.Priority > 0 && c.Grow > 0 && need[i] > 0; lowShown && named && w[i] < need[i] {
				t.Fatalf("cols %+v need %v avail %d: widths %v: column %d cut to %d of %d beside a low column", cols, need, avail, w, i, w[i], need[i])
			}
		}
	}
}
