package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestDeleteFileAndMetadataAgainstTheSim: delete_file's three answers are
// results (deleted, busy while processing, gone), and get_metadata reads
// both shapes, the size as a string, the limits as numbers.
func TestDeleteFileAndMetadataAgainstTheSim(t *testing.T) {
	s, c := newSim(t, sim.Options{Seed: sim.DefaultSeed, NoRateLimit: true}, "admin", api.Limits{})
	ctx := context.Background()
	pid, _ := s.AddProject(sim.ProjectSpec{Name: "Misfiled"})
	ids, _ := s.AddFiles(pid, []sim.FileSpec{{Name: "a.pdf", Size: 4000}, {Name: "b.pdf", Status: "PROCESSING", Size: 200}})
	if err := s.SetProjectLimits(pid, 1000, 5_000_000_000); err != nil {
		t.Fatal(err)
	}
	for _, flat := range []bool{false, true} {
		s.SetMetadataShape(flat)
		m, err := c.GetMetadata(ctx, pid)
		if err != nil || m.FileCount != 2 || m.MaxFileCount != 1000 || m.ProjectSize != 4200 || m.MaxProjectSize != 5_000_000_000 || len(m.FileIDs) != 2 {
			t.Fatalf("flat %v: %+v %v", flat, m, err)
		}
	}
	for _, tc := range []struct {
		id   string
		want api.FileDeletion
	}{{ids[1], api.FileBusy}, {ids[0], api.FileDeleted}, {ids[0], api.FileGone}} {
		r, err := c.DeleteFile(ctx, tc.id)
		if err != nil || r.Outcome != tc.want {
			t.Fatalf("%s: %+v %v, want %v", tc.id, r, err, tc.want)
		}
	}
	s.Advance(time.Hour)
	if _, err := c.GetMetadata(ctx, "no-such-project"); err == nil {
		t.Fatal("metadata of no project")
	}
}
