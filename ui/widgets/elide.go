package widgets

// How a cell too long for its column is cut (the layout, layout.go, decides
// the widths): at its end, in its middle, a date by its shortened forms, and
// an e-mail column without the domain every row shares.

import "github.com/charmbracelet/x/ansi"

// elide cuts s to at most w cells the way mode says; s is a plain cell
// (no escape sequences: cells are sanitized).
func elide(s string, w int, mode Elide) string {
	sw := ansi.StringWidth(s)
	if sw <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	switch mode {
	case ElideDate:
		if d, ok := shortDate(s, w); ok {
			return d
		}
	case ElideMiddle:
		return cutMiddle(s, sw, w, (w-1+1)/2)
	}
	return ansi.Truncate(s, w, "…")
}

// cutMiddle keeps head cells of s's start and the rest of w (less the
// ellipsis) of its end. A wide rune that would straddle the cut is left
// out, so the result may be a cell short of w (fit pads it).
func cutMiddle(s string, sw, w, head int) string {
	if w < 3 {
		return ansi.Truncate(s, w, "…")
	}
	head = min(max(head, 0), w-1)
	tail := w - 1 - head
	end := ansi.TruncateLeft(s, sw-tail, "")
	for n := sw - tail + 1; ansi.StringWidth(end) > tail && n <= sw; n++ { // a wide rune kept whole across the cut
		end = ansi.TruncateLeft(s, n, "")
	}
	return ansi.Truncate(s, head, "") + "…" + end
}

// shortDate shortens "2006-01-02 15:04[:05]" to fit w: without the year,
// then without the seconds, then the day alone. A date alone
// ("2006-01-02", a created column) goes straight to the day.
func shortDate(s string, w int) (string, bool) {
	if len(s) == 10 && s[4] == '-' && s[7] == '-' && w >= 5 {
		return s[5:], true
	}
	if len(s) < 16 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' {
		return "", false
	}
	md, hm := s[5:10], s[11:16]
	for _, c := range []string{s[5:], md + " " + hm, md} {
		if len(c) <= w {
			return c, true
		}
	}
	return "", false
}

// elideColumn cuts one column's cells of the visible window to w. Two
// different cells that would come out the same ("Bellhaven Shipping v.
// Br…" twice) are cut again at a split of head and tail that tells every
// one of them apart, when the width allows one: the user sees different
// names as different.
func elideColumn(cells []string, w int, mode Elide) []string {
	out := make([]string, len(cells))
	for i, s := range cells {
		out[i] = elide(s, w, mode)
	}
	if mode == ElideDate || w < 3 {
		return out
	}
	for range 3 { // a moved split may meet another cell; bounded
		groups := collisions(cells, out)
		if len(groups) == 0 {
			break
		}
		for _, g := range groups {
			if h, ok := splitApart(cells, g, w); ok {
				for _, i := range g {
					if sw := ansi.StringWidth(cells[i]); sw > w {
						out[i] = cutMiddle(cells[i], sw, w, h)
					}
				}
			}
		}
	}
	return out
}

// collisions groups the indexes whose cut cells are equal while their
// cells differ.
func collisions(cells, out []string) [][]int {
	var by map[string][]int
	for i, s := range out {
		if s == cells[i] {
			continue // shown whole: only cut cells are moved
		}
		if by == nil {
			by = map[string][]int{}
		}
		by[s] = append(by[s], i)
	}
	var groups [][]int
	for _, g := range by {
		for _, i := range g[1:] {
			if cells[i] != cells[g[0]] {
				groups = append(groups, g)
				break
			}
		}
	}
	return groups
}

// splitApart finds the head width, nearest the middle, at which the cells
// of g cut to w are all different (equal cells aside).
func splitApart(cells []string, g []int, w int) (int, bool) {
	mid := w / 2
	seen := map[string]string{}
	for d := 0; d < 2*w; d++ {
		h := mid + (d+1)/2*(1-2*(d%2)) // mid, mid-1, mid+1, mid-2 ...
		if h < 0 || h > w-1 {
			continue
		}
		clear(seen)
		ok := true
		for _, i := range g {
			c := cutMiddle(cells[i], ansi.StringWidth(cells[i]), w, h)
			if o, dup := seen[c]; dup && o != cells[i] {
				ok = false
				break
			}
			seen[c] = cells[i]
		}
		if ok {
			return h, true
		}
	}
	return 0, false
}

// commonDomain is the e-mail domain most of the sampled addresses share,
// when it is dominant (more than half of them, at least two) or every
// address has it (one deleter's entries, a project of one user): the
// column shows it once in its header and drops it from the rows, which
// keep the local part whole instead of cutting the domain ("c.lombardi@har…").
func commonDomain(addrs []string) string {
	count := map[string]int{}
	total := 0
	for _, a := range addrs {
		if at := lastAt(a); at > 0 && at < len(a)-1 {
			count[a[at+1:]]++
			total++
		}
	}
	best, n := "", 0
	for d, c := range count {
		if c > n || c == n && d < best {
			best, n = d, c
		}
	}
	if n >= 2 && 2*n > total || n > 0 && n == total {
		return best
	}
	return ""
}

// stripDomain drops "@dom" from an address in the common domain.
func stripDomain(s, dom string) string {
	if dom == "" {
		return s
	}
	if at := lastAt(s); at > 0 && s[at+1:] == dom {
		return s[:at]
	}
	return s
}

func lastAt(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '@' {
			return i
		}
	}
	return -1
}
