package sim_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// TestTheLogAgreesWithTheListings (issue 42): whatever the simulator's
// audit log says happened, its listings show, for every seed option and
// after the writes a session makes: every project deletion names a project
// the recycle bin holds (deleted by the entry's user) or one whose deletion
// is in progress; every upload names a project that is listed, in the bin
// or being deleted, and a live one lists at least as many files uploaded
// since. The simulator never purges the bin (an entry past its purge time
// stays, as the service's purge job lags), so no deletion it logged leaves
// it. Before, the planted burst's 15 deletions named projects in neither
// the bin nor the project list, and `vaultdeck person` said "Deleted 0".
func TestTheLogAgreesWithTheListings(t *testing.T) {
	for _, c := range []struct {
		name string
		o    sim.Options
	}{
		{"plain", sim.Options{Seed: 1}},
		{"burst and leaver", sim.Options{Seed: 3, AuditBurst: sim.AuditBurst{Count: 15}, Leaver: true, AuditTrickle: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.Now, o.NoRateLimit, o.Control = pinnedNow, true, true
			e := simtest.Start(t, simtest.Options{Sim: o})
			ctx := context.Background()
			// a session's writes: one deletion landed, one in progress, an upload
			var live []sim.ProjectInfo
			for _, p := range e.Sim.Projects() {
				if !p.Example && !p.Deleted && p.Name != sim.ConflictsProjectName {
					live = append(live, p)
				}
			}
			if _, err := e.Client.DeleteProject(ctx, live[0].ID); err != nil {
				t.Fatal(err)
			}
			e.Sim.Advance(time.Minute)
			if _, err := e.Client.DeleteProject(ctx, live[1].ID); err != nil {
				t.Fatal(err)
			}
			files := []api.UploadFile{}
			for _, n := range []string{"a.pdf", "b.pdf", "c.pdf"} {
				files = append(files, api.UploadFile{Name: n, Size: 3, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("pdf")), nil }})
			}
			if _, err := e.Client.Upload(ctx, live[2].ID, files, api.DuplicateKeep); err != nil {
				t.Fatal(err)
			}
			otherWrites(t, e, live[3].ID)
			walkTheLog(t, e)
		})
	}
}

// walkTheLog checks every entry of e's log against e's listings.
func walkTheLog(t *testing.T, e *simtest.Env) {
	t.Helper()
	ctx := context.Background()
	bin := map[string]api.RecycleBinEntry{}
	if _, err := e.Client.RecycleBin(api.RecycleBinQuery{}).Each(ctx, func(x *api.RecycleBinEntry, _ api.RawItem) error {
		bin[x.ResourceID] = *x
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	projects := map[string]sim.ProjectInfo{}
	for _, p := range e.Sim.Projects() {
		projects[p.ID] = p
	}
	listed := map[string]bool{}
	if _, err := e.Client.Projects(api.ProjectQuery{}).Each(ctx, func(p *api.Project, _ api.RawItem) error {
		listed[p.ID] = true
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	var others []api.AuditEntry // the sharing, file and matter writes, checked below
	if _, err := e.Client.Audit(api.AuditQuery{}).Each(ctx, func(x *api.AuditEntry, _ api.RawItem) error {
		var data struct {
			ProjectID  string `json:"project_id"`
			FilesCount int    `json:"files_count"`
		}
		_ = json.Unmarshal(x.Data, &data)
		switch typ := string(x.Type); typ {
		case sim.AuditAPIDeleteProject:
			kinds[typ]++
			b, inBin := bin[data.ProjectID]
			switch {
			case inBin && !strings.EqualFold(b.DeletedByUserEmail, x.User):
				t.Errorf("entry %s: %s deleted project %s, which the bin says %s deleted", x.ID, x.User, data.ProjectID, b.DeletedByUserEmail)
			case inBin && b.DeletedAt.Before(x.Timestamp.Time):
				t.Errorf("entry %s at %v deletes project %s, in the bin since %v, before", x.ID, x.Timestamp, data.ProjectID, b.DeletedAt)
			case !inBin && !projects[data.ProjectID].DeleteInProgress:
				t.Errorf("entry %s: %s deleted project %s, which is in neither the recycle bin nor being deleted (listed: %v)", x.ID, x.User, data.ProjectID, listed[data.ProjectID])
			}
		case sim.AuditAPIUpdateUsers, sim.AuditAPIRemoveUsers, sim.AuditAPIDeleteFile, sim.AuditAPIMatters:
			kinds[typ]++
			others = append(others, *x)
		case sim.AuditAPIUpload:
			kinds[typ]++
			_, inBin := bin[data.ProjectID]
			p, known := projects[data.ProjectID]
			switch {
			case !known || (!listed[data.ProjectID] && !inBin && !p.DeleteInProgress):
				t.Errorf("entry %s uploads %d files to project %s, which is not listed, in the bin or being deleted", x.ID, data.FilesCount, data.ProjectID)
			case listed[data.ProjectID]:
				since := 0
				if _, err := e.Client.ProjectFiles(data.ProjectID, api.FileQuery{}).Each(ctx, func(f *api.ProjectFile, _ api.RawItem) error {
					if !f.UploadedAt.Before(x.Timestamp.Truncate(time.Second)) {
						since++
					}
					return nil
				}, nil); err != nil {
					return err
				}
				if since < data.FilesCount {
					t.Errorf("entry %s uploads %d files to project %s, which lists %d uploaded since", x.ID, data.FilesCount, data.ProjectID, since)
				}
			}
		}
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	checkTheOtherWrites(t, e, others)
	if kinds[sim.AuditAPIDeleteProject] < 2 || kinds[sim.AuditAPIUpload] < 1 {
		t.Fatalf("the log holds %v: the walk checked too little", kinds)
	}
}
