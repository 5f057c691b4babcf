package upload

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
)

// rig is an in-process simulator, a client, a store and an empty project.
type rig struct {
	t       *testing.T
	sim     *sim.Server
	client  *api.Client
	store   *store.Store
	project string
	dir     string
}

func newRig(t *testing.T) *rig {
	t.Helper()
	e := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}})
	s, c := e.Sim, e.Client
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	pid, err := s.AddProject(sim.ProjectSpec{Name: "Uploads"})
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, sim: s, client: c, store: st, project: pid, dir: t.TempDir()}
}

func (r *rig) runner(owner string) *Runner {
	return &Runner{API: r.client, Store: r.store, Profile: "default", Owner: owner}
}

// files writes n files of size bytes under the rig's folder (distinct
// content each) and returns the plan for the folder.
func (r *rig) files(n, size int) Plan {
	r.t.Helper()
	for i := range n {
		b := make([]byte, size)
		copy(b, fmt.Sprintf("file %d", i))
		p := filepath.Join(r.dir, "docs", fmt.Sprintf("doc-%03d.pdf", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	return Walk([]string{filepath.Join(r.dir, "docs")})
}

// listed returns the project's live file names with their IDs.
func (r *rig) listed() map[string][]string {
	r.t.Helper()
	out := map[string][]string{}
	files, _, err := r.client.ProjectFiles(r.project, api.FileQuery{}).Collect(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	for _, f := range files {
		out[f.Name] = append(out[f.Name], f.ID)
	}
	return out
}

// journalIDs returns the file IDs the journal holds, by name.
func (r *rig) journalIDs() map[string]string {
	r.t.Helper()
	runs, err := r.store.UploadRuns("default")
	if err != nil {
		r.t.Fatal(err)
	}
	out := map[string]string{}
	for _, run := range runs {
		files, _ := r.store.RunFiles(run.ID)
		for _, f := range files {
			if f.State == store.FileUploaded {
				if _, dup := out[f.Name]; dup {
					r.t.Errorf("journal holds %s twice", f.Name)
				}
				out[f.Name] = f.FileID
			}
		}
	}
	return out
}

func sortedKeys(m map[string][]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}
