package projectview

import (
	"context"
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// BenchmarkFirstLoad100kFiles opens the Files tab of a project whose
// listing arrives as 100,000 files in one answer and reports the longest
// single Update (goal: one frame, 16 ms): rows are built off the event loop.
func BenchmarkFirstLoad100kFiles(b *testing.B) {
	files := make([]api.ProjectFile, 100_000)
	for i := range files {
		files[i] = api.ProjectFile{ID: fmt.Sprint("f", i), Name: fmt.Sprintf("exhibit-%06d.pdf", i),
			ProcessingStatus: api.StatusReadyToQuery, Size: api.Int(i), UploadedAt: api.Time{Time: pagetest.Now}}
	}
	f := fake()
	f.ProjectFilesFn = func(context.Context, string, api.FileQuery) (*api.FilePage, error) {
		return &api.FilePage{Files: files}, nil
	}
	var worst time.Duration
	for b.Loop() {
		p := FromRecord(pagetest.Env(b, f, false), api.Project{ID: "p1", Name: "Big"})
		p.SetSize(200, 60)
		p, _ = pagetest.Drive(p, p.Init())
		p, cmd := p.Update(tea.KeyMsg{Type: tea.KeyTab})
		p, _, longest := pagetest.DriveTimed(p, cmd)
		worst = max(worst, longest)
		if n := p.(*Model).Tabs[tabFiles].Len(); n != len(files) {
			b.Fatalf("%d rows", n)
		}
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-update-ms")
	if worst > 16*time.Millisecond {
		b.Errorf("an Update blocked the event loop for %v (goal: under 16ms)", worst)
	}
}
