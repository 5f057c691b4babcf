package upload

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestCheckLimitsNamesTheNumbers: 60 files to a project that allows 50
// more are refused with the numbers; under skip, names the project holds
// add nothing; the size limit likewise.
func TestCheckLimitsNamesTheNumbers(t *testing.T) {
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	pid, _ := e.Sim.AddProject(sim.ProjectSpec{Name: "Full"})
	specs := make([]sim.FileSpec, 950)
	for i := range specs {
		specs[i] = sim.FileSpec{Name: fmt.Sprintf("old %04d.pdf", i), Size: 4_400_000}
	}
	e.Sim.AddFiles(pid, specs)
	e.Sim.SetProjectLimits(pid, 1000, 5_000_000_000)
	plan := func(n int, size int64, prefix string) Plan {
		var p Plan
		for i := 0; i < n; i++ {
			p.Files = append(p.Files, File{Name: fmt.Sprintf("%s %04d.pdf", prefix, i), Size: size})
		}
		return p
	}
	ctx := context.Background()
	var le *LimitError
	_, err := CheckLimits(ctx, e.Client, pid, plan(60, 1, "new"), api.DuplicateKeep)
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "allows 1,000 files and holds 950, so 50 more fit; this upload adds 60") {
		t.Fatalf("60 files: %v", err)
	}
	if _, err := CheckLimits(ctx, e.Client, pid, plan(60, 1, "old"), api.DuplicateSkip); err != nil {
		t.Fatalf("60 names the project holds, under skip: %v", err)
	}
	_, err = CheckLimits(ctx, e.Client, pid, plan(10, 100_000_000, "big"), api.DuplicateKeep)
	if !errors.As(err, &le) || le.What != "size" {
		t.Fatalf("1 GB more to 4.2 of 5 GB: %v", err)
	}
}
