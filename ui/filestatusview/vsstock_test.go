package filestatusview

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/ui/widgets/stocktable"
)

// BenchmarkKeyPressVsStock100k: the file-status view with 100,000 answered
// files against the stock bubbles table with the same rows' text at the
// same size, timed alternately in one run (ours/stock, goal at most 0.1).
func BenchmarkKeyPressVsStock100k(b *testing.B) {
	r := loaded100k(b)
	r.m.SetSize(200, 60)
	_, details := files100k()
	rows := make([][]string, 0, len(details))
	for _, d := range details {
		rows = append(rows, []string{d.FileName, string(d.ProcessingStatus), "3m", "", d.FileID})
	}
	stock := stocktable.New([]string{"Name", "Status", "In status", "Flag", "ID"}, rows, 200, 60)
	down := tea.KeyMsg{Type: tea.KeyDown}
	stocktable.Compare(b, func() { r.m.Update(down); _ = r.m.View() }, stock, down)
}
