// Package stocktable is the yardstick of issue 46's key-press goal: the stock
// bubbles table (v1.0.0) holding the same rows at the same size, so that a
// view's benchmark can time its own key press and the stock one in one run
// and report the ratio as one figure (a ratio whose two sides come from two
// runs moves with the machine's load between them).
package stocktable

import (
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/table"
	tea "github.com/charmbracelet/bubbletea"
)

// Table is a focused stock table sized width x height with these rows.
type Table struct{ m table.Model }

// New builds the stock table. Column widths are shared out evenly over the
// width, as a person configuring the stock widget for that terminal would.
func New(titles []string, rows [][]string, width, height int) *Table {
	cols := make([]table.Column, len(titles))
	w := width/len(titles) - 2 // the default cell style pads one each side
	for i, t := range titles {
		cols[i] = table.Column{Title: t, Width: w}
	}
	trs := make([]table.Row, len(rows))
	for i, r := range rows {
		trs[i] = table.Row(r)
	}
	m := table.New(table.WithColumns(cols), table.WithRows(trs), table.WithFocused(true),
		table.WithHeight(height-3), table.WithWidth(width), table.WithStyles(table.DefaultStyles()))
	return &Table{m: m}
}

// Press is one key press as the runtime delivers it: Update, then View.
func (t *Table) Press(k tea.KeyMsg) {
	t.m, _ = t.m.Update(k)
	_ = t.m.View()
}

// Compare times ours and the stock table's key press alternately, one of
// each per iteration, and reports both and their ratio: ns/op is the pair,
// "ours-ns/op", "stock-ns/op" and "ours/stock" the sides. Alternating keeps
// both sides under the same load, as farm-bench's pairs do.
func Compare(b *testing.B, ours func(), stock *Table, k tea.KeyMsg) {
	b.Helper()
	var o, s time.Duration
	n := 0
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		ours()
		t1 := time.Now()
		stock.Press(k)
		s += time.Since(t1)
		o += t1.Sub(t0)
		n++
	}
	b.ReportMetric(float64(o.Nanoseconds())/float64(n), "ours-ns/op")
	b.ReportMetric(float64(s.Nanoseconds())/float64(n), "stock-ns/op")
	b.ReportMetric(float64(o)/float64(s), "ours/stock")
}
