package sim_test

import (
	"context"
	"encoding/json"
	"io"
	"slices"
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
// is in progress, until its purge time (sim.DeleteDelay and
// sim.RecycleRetention after the entry) has passed on the simulator's clock;
// from then on the project is in neither the bin, the listing nor the
// simulator's projects (gone for good); every upload names a project that
// is listed, in the bin, being deleted or purged, and a live one lists at
// least as many files uploaded since; no entry the bin lists is past its
// purge time. Before, the planted burst's 15 deletions named projects in
// neither the bin nor the project list, and `vaultdeck person` said
// "Deleted 0"; and the simulator never purged, so a deletion stayed in the
// bin for ever.
func TestTheLogAgreesWithTheListings(t *testing.T) {
	for _, c := range []struct {
		name string
		o    sim.Options
		// later is how long after the session's first deletion the log
		// is walked: past its purge time, the bin has purged it.
		later time.Duration
	}{
		{"plain", sim.Options{Seed: 1}, 0},
		{"burst and leaver", sim.Options{Seed: 3, AuditBurst: sim.AuditBurst{Count: 15}, Leaver: true, AuditTrickle: 3}, 0},
		{"a purge later", sim.Options{Seed: 3, AuditBurst: sim.AuditBurst{Count: 15}, Leaver: true}, sim.DeleteDelay + sim.RecycleRetention + 30*time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.o
			o.Now, o.NoRateLimit, o.Control = pinnedNow, true, true
			e := simtest.Start(t, simtest.Options{Sim: o})
			ctx := context.Background()
			// a session's writes: uploads (one to a project then deleted), one
			// deletion landed, one in progress
			var live []sim.ProjectInfo
			for _, p := range e.Sim.Projects() {
				if !p.Example && !p.Deleted && p.Name != sim.ConflictsProjectName {
					live = append(live, p)
				}
			}
			files := []api.UploadFile{}
			for _, n := range []string{"a.pdf", "b.pdf", "c.pdf"} {
				files = append(files, api.UploadFile{Name: n, Size: 3, Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("pdf")), nil }})
			}
			for _, p := range []string{live[2].ID, live[0].ID} {
				if _, err := e.Client.Upload(ctx, p, files, api.DuplicateKeep); err != nil {
					t.Fatal(err)
				}
			}
			first := e.Sim.Now()
			if _, err := e.Client.DeleteProject(ctx, live[0].ID); err != nil {
				t.Fatal(err)
			}
			e.Sim.Advance(time.Minute)
			if _, err := e.Client.DeleteProject(ctx, live[1].ID); err != nil {
				t.Fatal(err)
			}
			otherWrites(t, e, live[3].ID)
			if c.later > 0 {
				e.Sim.Advance(first.Add(c.later).Sub(e.Sim.Now()))
			}
			purged := walkTheLog(t, e)
			if c.later > 0 && (purged < 16 || !slices.ContainsFunc(e.Sim.Projects(), func(p sim.ProjectInfo) bool { return p.ID == live[1].ID && p.Deleted })) {
				t.Errorf("%d of the log's deletions purged (want the burst's 15 and the session's first), the second still in the bin: %v", purged, e.Sim.Projects())
			}
		})
	}
}

// walkTheLog checks every entry of e's log against e's listings, and
// returns how many of the log's deletions were purged.
func walkTheLog(t *testing.T, e *simtest.Env) (purged int) {
	t.Helper()
	ctx := context.Background()
	now := e.Sim.Now()
	bin := map[string]api.RecycleBinEntry{}
	if _, err := e.Client.RecycleBin(api.RecycleBinQuery{}).Each(ctx, func(x *api.RecycleBinEntry, _ api.RawItem) error {
		bin[x.ResourceID] = *x
		if at := x.RecycleBinPurgedScheduledAt.Time; !at.After(now) {
			t.Errorf("the bin lists %s, purged at %v, at %v", x.VaultProject.Name, at, now)
		}
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
	var log []api.AuditEntry
	if _, err := e.Client.Audit(api.AuditQuery{}).Each(ctx, func(x *api.AuditEntry, _ api.RawItem) error {
		log = append(log, *x)
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	// the projects whose logged deletion's purge time has passed
	purgedAt := map[string]bool{}
	for _, x := range log {
		var data struct {
			ProjectID string `json:"project_id"`
		}
		_ = json.Unmarshal(x.Data, &data)
		if string(x.Type) == sim.AuditAPIDeleteProject && !x.Timestamp.Time.Add(sim.DeleteDelay+sim.RecycleRetention).After(now) {
			purgedAt[data.ProjectID] = true
		}
	}
	for i := range log {
		x := &log[i]
		var data struct {
			ProjectID  string `json:"project_id"`
			FilesCount int    `json:"files_count"`
		}
		_ = json.Unmarshal(x.Data, &data)
		switch typ := string(x.Type); typ {
		case sim.AuditAPIDeleteProject:
			kinds[typ]++
			b, inBin := bin[data.ProjectID]
			_, known := projects[data.ProjectID]
			gone := purgedAt[data.ProjectID]
			if gone {
				purged++
			}
			switch {
			case gone && (inBin || known || listed[data.ProjectID]):
				t.Errorf("entry %s at %v deletes project %s, purged at %v: in the bin %v, known %v, listed %v", x.ID, x.Timestamp, data.ProjectID, now, inBin, known, listed[data.ProjectID])
			case gone:
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
			case !known && purgedAt[data.ProjectID]:
				// deleted and purged since: gone for good
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
					t.Fatal(err)
				}
				if since < data.FilesCount {
					t.Errorf("entry %s uploads %d files to project %s, which lists %d uploaded since", x.ID, data.FilesCount, data.ProjectID, since)
				}
			}
		}
	}
	checkTheOtherWrites(t, e, others)
	if kinds[sim.AuditAPIDeleteProject] < 2 || kinds[sim.AuditAPIUpload] < 1 {
		t.Fatalf("the log holds %v: the walk checked too little", kinds)
	}
	return purged
}
