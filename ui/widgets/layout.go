package widgets

import "slices"

// The column layout: who gets the room on a narrow screen. A column
// declares its preferred width (Width), how far it may be squeezed (Min),
// how much of the spare it takes (Grow), how much a measured need may ask
// (Max) and its Priority; the layout gives the higher priorities (names)
// the room they need first, squeezes and then hides the lower ones (dates
// shorten, then dates and counts go) to get it, and only then squeezes
// names. Widths are display widths
// (x/ansi, the measure lipgloss uses: East Asian wide runes and emoji
// count two).

// Elide says how a cell too long for its column is cut.
type Elide uint8

// Elide modes.
const (
	// ElideEnd keeps the start: "Bellhaven Shipping v. Br…".
	ElideEnd Elide = iota
	// ElideMiddle keeps both ends, where names differ: "Bellhaven Shi…v. Brandt".
	ElideMiddle
	// ElideDate shortens a "2006-01-02 15:04[:05]" time by dropping the
	// year, then the seconds, then the time: "11-26 14:05", "11-26"; a
	// date alone ("2006-01-02") loses its year: "11-26".
	ElideDate
	// ElideEmail drops the column's common domain (shown once in the
	// header instead) and then keeps the local part: "m.castellano".
	ElideEmail
)

// layoutWidths gives each column its width in cells, within avail (the
// line minus the gutter). need[i] is the width column i's content asks
// (measured on a sample; 0: unknown). A named column is one with a
// Priority above 0 that Grows (names, e-mails): it starts at its need
// (within Min and Max), the others at Width; an ExportOnly column is 0.
// While the line is too wide, room is given up in this order, lowest
// Priority first and, within one, rightmost first:
//  0. columns wider than their measured need give back what they do not
//     use (a status column of 21 cells showing "processing");
//  1. columns of Priority 0 and dates shrink to their Min (a date loses
//     its year);
//     ID columns (drawn whole or not at all) are hidden, whatever their
//     Priority; the Priority 0 columns that would still cut their cells
//     are hidden;
//  2. named columns give back to their typical width, then columns of
//     Priority 0 are hidden (dates, counts, flags): a name is whole
//     before one shows, unless it is longer than nine in ten;
//  3. named columns give back what they needed beyond their Width or half
//     their need (of the line at most), whichever is more;
//  4. the others shrink to their Min, then are hidden, one column always
//     left (cut to the line if it must be).
//
// A hidden column that fits in the room left over comes back. Room left
// over goes to named columns up to their need, highest Priority
// first, then to the other growing columns still cut, up to their need,
// then to every growing column by Grow. The total, separators
// included, never exceeds avail.
func layoutWidths(cols []Column, need, typical []int, avail int) []int {
	n := len(cols)
	w := make([]int, n)
	vis := make([]bool, n)
	named := func(i int) bool { return cols[i].Priority > 0 && cols[i].Grow > 0 && need[i] > 0 }
	minOf := func(i int) int {
		if m := cols[i].Min; m > 0 && m < cols[i].Width {
			return m
		}
		return cols[i].Width
	}
	wantOf := func(i int) int {
		want := need[i]
		if m := cols[i].Max; m > 0 {
			want = min(want, m)
		}
		return max(want, minOf(i))
	}
	for i, c := range cols {
		if !c.ExportOnly && (c.Width > 0 || c.Grow > 0) {
			w[i], vis[i] = c.Width, true
			if named(i) || (c.ID && need[i] > 0) {
				w[i] = wantOf(i) // an ID starts whole: it is never cut
			}
		}
	}
	// typicalOf is the width nine cells in ten need (need when unknown)
	typicalOf := func(i int) int {
		if i < len(typical) && typical[i] > 0 {
			return min(typical[i], need[i])
		}
		return need[i]
	}
	// showAt is the narrowest a hidden column may come back at: an ID and
	// a low column that is not a date whole (they were hidden rather than
	// cut), the others at their Min
	showAt := func(i int) int {
		if cols[i].ID || (cols[i].Priority <= 0 && cols[i].Elide != ElideDate) {
			return wantOf(i)
		}
		return snap(cols[i], minOf(i))
	}
	cost := func() int {
		s, k := 0, 0
		for i := range w {
			if vis[i] {
				s += w[i]
				k++
			}
		}
		return s + max(k-1, 0)
	}
	levels := priorities(cols)
	// each concession walks the levels up, the columns right to left
	give := func(ok func(i int) bool, floor func(i int) int, hide bool) {
		for _, p := range levels {
			for i := n - 1; i >= 0 && cost() > avail; i-- {
				if !vis[i] || cols[i].Priority != p || !ok(i) {
					continue
				}
				if hide {
					if shownCount(vis) > 1 {
						vis[i], w[i] = false, 0
					}
				} else if f := floor(i); w[i] > f {
					w[i] = snap(cols[i], max(f, w[i]-(cost()-avail)))
				}
			}
		}
	}
	low := func(i int) bool { return cols[i].Priority <= 0 }
	// a column wider than its cells and title (an enum's widest value not
	// among the rows) gives that back before anything is cut, keeping a
	// cell for the sort arrow ("purge in▲", not "purge i▲")
	roomy := func(i int) bool { return !named(i) && need[i] > 0 && need[i]+1 < w[i] }
	give(roomy, func(i int) int { return need[i] + 1 }, false)
	// a date loses its year (then its seconds) before anything is cut or
	// hidden, whatever its priority: the audit log's times stay, shortened
	give(func(i int) bool { return low(i) || cols[i].Elide == ElideDate }, minOf, false)
	// an ID (whole or not at all) goes before anything is cut or hidden
	// for it: a person's projects at 80 columns read "Acme Corp v.
	// Halvorsen — Patent Litigation", not "Acme Corp v. Halv…atent
	// Litigation" beside a whole UUID
	give(func(i int) bool { return cols[i].ID }, nil, true)
	// a low column that could not show its cells anyway (a UUID's first
	// 12 cells, "appl…pdf") goes before a name is cut for it; a date
	// shortened to its day is not cut
	clipped := func(i int) bool { return low(i) && cols[i].Elide != ElideDate && need[i] > w[i] }
	give(clipped, nil, true)
	// a name gives back to what nine names in ten need (typical) before a
	// low column goes for it: at 120 columns one 67-cell name took the
	// file count from every row of the bin; one long name cut in the
	// middle is the better trade
	give(named, func(i int) int { return min(w[i], max(cols[i].Width, minOf(i), typicalOf(i))) }, false)
	// then a name is whole before a low column shows (as in k9s and
	// gh-dash: the name is what people read): at 80 columns the bin read
	// "Bellhaven Shipping…ight — Refinancing" beside its deletion time and
	// file count. Then a name still too wide gives back down to half of
	// what it needs (of the line at most) before anything else is cut
	give(low, nil, true)
	fair := func(i int) int { return min(need[i], avail) / 2 }
	give(named, func(i int) int { return min(w[i], max(cols[i].Width, minOf(i), fair(i))) }, false)
	give(func(int) bool { return true }, minOf, false)
	give(func(int) bool { return true }, nil, true)
	if over := cost() - avail; over > 0 { // one column left, wider than the line
		for i := range w {
			if vis[i] {
				w[i] = max(w[i]-over, 0)
			}
		}
		return w
	}
	// hiding went column by column and may have gone too far: a column
	// that fits in what is left comes back, highest priority first (at
	// 100 columns the bin hid the deletion time, "05-31", and gave its
	// room to names already whole); a low one only once the names have
	// what nine in ten need
	readmit := func(ok func(i int) bool) {
		for k := len(levels) - 1; k >= 0; k-- {
			for i, c := range cols {
				if !vis[i] && c.Priority == levels[k] && !c.ExportOnly && (c.Width > 0 || c.Grow > 0) && ok(i) {
					if at := showAt(i); cost()+1+at <= avail {
						w[i], vis[i] = at, true
					}
				}
			}
		}
	}
	readmit(func(i int) bool { return !low(i) })
	// the spare: named columns up to their need, highest priority first
	for k := len(levels) - 1; k >= 0; k-- {
		for i := range cols {
			if vis[i] && cols[i].Priority == levels[k] && named(i) && wantOf(i) > w[i] {
				w[i] += min(wantOf(i)-w[i], avail-cost())
			}
		}
	}
	namesTypical := true
	for i := range cols {
		if named(i) && (!vis[i] || w[i] < min(wantOf(i), max(typicalOf(i), minOf(i)))) {
			namesTypical = false
		}
	}
	readmit(func(i int) bool { return low(i) && namesTypical })
	// then the columns still cut (an ID, a MIME type), by Grow, each up to
	// its need: no column grows past what it shows while another is cut
	cut := func(i int) bool { return vis[i] && cols[i].Grow > 0 && !named(i) && wantOf(i) > w[i] }
	for range n { // each round fills at least one column, or the spare is gone
		spare, grow := avail-cost(), 0
		for i := range cols {
			if cut(i) {
				grow += cols[i].Grow
			}
		}
		if spare <= 0 || grow == 0 {
			break
		}
		given := 0
		for i := range cols {
			if cut(i) {
				d := min(max(spare*cols[i].Grow/grow, 1), wantOf(i)-w[i], spare-given)
				w[i] += d
				given += d
			}
		}
		if given == 0 {
			break
		}
	}
	// then by Grow; the rounding remainder to the last grower
	spare, grow, last := avail-cost(), 0, -1
	for i, c := range cols {
		if vis[i] && c.Grow > 0 {
			grow += c.Grow
			last = i
		}
	}
	if grow > 0 && spare > 0 {
		given := 0
		for i, c := range cols {
			if vis[i] && c.Grow > 0 {
				extra := spare * c.Grow / grow
				w[i] += extra
				given += extra
			}
		}
		w[last] += spare - given
	}
	return w
}

// snap rounds a date column's width down to one its shortened forms use
// (from "2006-01-02 15:04[:05]": "01-02 15:04[:05]", "01-02 15:04",
// "01-02"), no lower than Min: cells between them would show nothing.
func snap(c Column, w int) int {
	if c.Elide != ElideDate || w >= c.Width {
		return w
	}
	for _, b := range []int{c.Width - 5, 11, 5} { // without the year, the seconds, the time
		if b <= w && b >= c.Min {
			return b
		}
	}
	return w
}

func shownCount(vis []bool) int {
	k := 0
	for _, v := range vis {
		if v {
			k++
		}
	}
	return k
}

// priorities lists the columns' distinct priorities, lowest first.
func priorities(cols []Column) []int {
	var ps []int
	for _, c := range cols {
		if !slices.Contains(ps, c.Priority) {
			ps = append(ps, c.Priority)
		}
	}
	slices.Sort(ps)
	return ps
}
