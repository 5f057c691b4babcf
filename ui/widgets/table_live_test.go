package widgets

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/keys"
)

// A Live column is computed at render time for the visible window only, so
// a clock-driven value stays current without touching the other rows.
func TestLiveColumnOnlyForVisibleRows(t *testing.T) {
	calls := 0
	live := "1s"
	tb := NewTable(testTheme(t), keys.New(false), 7, []Column{
		{Title: "name", Width: 10},
		{Title: "age", Width: 6, Numeric: true, Live: func(r Row) (string, Tone) {
			calls++
			return live + r.ID, ToneAlarm
		}},
	})
	rows := make([]Row, 10_000)
	for i := range rows {
		rows[i] = Row{ID: "r" + strings.Repeat("x", i%3), Cells: []string{"n", "stored"}, Nums: []float64{0, float64(i)}}
	}
	tb.SetRows(rows)
	tb.SetSize(40, 12) // 10 body lines
	v := tb.View()
	if calls != 10 {
		t.Errorf("Live called %d times for a 10-line window, want 10", calls)
	}
	if strings.Contains(v, "stored") || !strings.Contains(v, "1sr") {
		t.Errorf("live value not rendered:\n%s", v)
	}
	live = "2s"
	if v := tb.View(); !strings.Contains(v, "2sr") {
		t.Errorf("live value not recomputed on the next frame:\n%s", v)
	}
}

// BenchmarkSort100k measures one re-sort of 100,000 rows by a text column
// and by a numeric one (o / O on a big file list). At 10-45 ms on a
// 2-core runner it stays under the ~50 ms above which sorting would have to
// move into a tea.Cmd like the filter, so sorting remains synchronous.
func BenchmarkSort100k(b *testing.B) {
	for _, c := range []struct {
		name string
		col  int
	}{{"text", 0}, {"numeric", 1}, {"alternating", -1}} {
		b.Run(c.name, func(b *testing.B) {
			tb := sampleTable(b, 100_000)
			desc, n := false, 0
			for b.Loop() {
				col := c.col
				if col < 0 { // switch columns each time: the order starts far from sorted
					col = n % 2
				}
				tb.SetSort(col, desc)
				desc = !desc
				n++
			}
		})
	}
}
