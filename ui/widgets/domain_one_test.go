package widgets

import (
	"strings"
	"testing"
)

// Issue 29.2, seen by hand over serve at 80x24: the recycle bin's entries
// of one deleter (b, enter) read 'c.lombardi@har…' in the deleted-by
// column, the cut the issue named ('m.castellano@harr…'): a table of one
// address had no common domain, so the address was cut at its end. The
// domain every address of the table shares is said once however few they
// are, and the rows keep the local part whole.
func TestOneAddressShowsItsDomainOnce(t *testing.T) {
	tb := NewTable(testTheme(t), keysForTest(), 1, []Column{
		{Title: "project", Width: 16, Min: 10, Grow: 3, Priority: 3, Elide: ElideMiddle},
		{Title: "deleted by", Width: 14, Min: 8, Grow: 2, Priority: 2, Elide: ElideEmail},
		{Title: "deleted at", Width: 16, Min: 11, Elide: ElideDate},
		{Title: "purge in", Width: 9, Align: AlignRight, Priority: 1},
		{Title: "files", Width: 5, Align: AlignRight},
		{Title: "kbase", Width: 5},
	})
	tb.SetRows([]Row{{ID: "1", Cells: []string{"Ivel Foods — Share Purchase", "c.lombardi@harrowgate-law.com", "2026-10-30 11:41", "2d03h", "46", ""}}})
	for _, w := range []int{120, 80, 60} {
		tb.SetSize(w, 6)
		v := tb.View()
		if strings.Contains(v, "@har…") || strings.Contains(v, "@h…") || !strings.Contains(v, "c.lombardi ") {
			t.Errorf("at %d columns the one address is cut at its end:\n%s", w, v)
		}
		if strings.Count(v, "harrowgate-law.com") != 1 {
			t.Errorf("at %d columns the domain is not said once:\n%s", w, v)
		}
	}
}
