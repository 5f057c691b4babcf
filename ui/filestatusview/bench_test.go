package filestatusview

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
)

// files100k are 100,000 files that have all been answered once, the way a
// big upload batch looks after a few polls.
func files100k() ([]string, []api.FileDetail) {
	const n = 100_000
	ids := make([]string, n)
	details := make([]api.FileDetail, n)
	statuses := []api.Status{"processing", "ready_to_query", "uploaded", "unrecoverable_failure"}
	for i := range ids {
		ids[i] = fmt.Sprintf("0193f1c2-7a4b-7c3d-9e8f-%012d", i)
		details[i] = api.FileDetail{FileID: ids[i], FileName: fmt.Sprintf("Exhibit %06d — Share Purchase Agreement.pdf", i),
			ProcessingStatus: statuses[i%len(statuses)]}
	}
	return ids, details
}

// loaded100k returns a view holding files100k.
func loaded100k(b *testing.B) *rig {
	b.Helper()
	ids, details := files100k()
	r := newRig(b, newFake(), strings.Join(ids, ","), Options{})
	r.m.tr.Apply(ids, details, r.now)
	r.m.rebuild(r.now)
	return r
}

// BenchmarkKeyPress100k measures one cursor move on 100,000 loaded files:
// Update plus the View the runtime renders after it.
func BenchmarkKeyPress100k(b *testing.B) {
	r := loaded100k(b)
	down := tea.KeyMsg{Type: tea.KeyDown}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.m.Update(down)
		_ = r.m.View()
	}
}

// BenchmarkRebuild100k measures what each poll result costs: rebuilding
// every row (cells, tones, header counts) and re-indexing the table.
func BenchmarkRebuild100k(b *testing.B) {
	r := loaded100k(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r.m.rebuild(r.now)
	}
}
