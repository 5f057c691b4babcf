package sim_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// otherWrites are a session's other writes, each the simulator logs: a
// share given then changed, one removed, a file deleted, matters deleted
// (one unknown pair among them) and one restored.
func otherWrites(t *testing.T, e *simtest.Env, pid string) {
	t.Helper()
	ctx := context.Background()
	users, _, err := e.Client.ProjectUsers(pid).Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	me, err := e.Client.WhoAmI(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// people of other projects who have no access to this one
	var outsiders []string
	for _, p := range e.Sim.Projects() {
		if p.Deleted || p.DeleteInProgress || p.ID == pid || len(outsiders) >= 2 {
			continue
		}
		others, _, err := e.Client.ProjectUsers(p.ID).Collect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range others {
			in := slices.ContainsFunc(users, func(x api.ProjectUser) bool { return strings.EqualFold(x.Email, u.Email) })
			if !in && !strings.EqualFold(u.Email, me.Email) && !slices.Contains(outsiders, u.Email) {
				outsiders = append(outsiders, u.Email)
			}
		}
	}
	if len(outsiders) < 2 {
		t.Fatalf("project %s: %d users outside it", pid, len(outsiders))
	}
	for _, ch := range [][]api.UserAccess{{{Email: outsiders[0], AccessLevel: "READ"}, {Email: outsiders[1], AccessLevel: "READ"}}, {{Email: outsiders[0], AccessLevel: "MANAGE"}}} {
		if _, err := e.Client.UpdateProjectUsers(ctx, pid, ch); err != nil {
			t.Fatal(err)
		}
		e.Sim.Advance(time.Second)
	}
	if _, err := e.Client.RemoveProjectUsers(ctx, pid, []string{outsiders[1]}); err != nil {
		t.Fatal(err)
	}
	files, _, err := e.Client.ProjectFiles(pid, api.FileQuery{}).Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(files, func(f api.ProjectFile) bool { return f.ProcessingStatus.Terminal() })
	if i < 0 {
		t.Fatalf("project %s has no file that can be deleted", pid)
	}
	if _, err := e.Client.DeleteFile(ctx, files[i].ID); err != nil {
		t.Fatal(err)
	}
	ms := e.Sim.Matters()
	pairs := []api.MatterPair{{ClientID: ms[0].ClientID, MatterID: ms[0].MatterID}, {ClientID: ms[1].ClientID, MatterID: ms[1].MatterID}, {ClientID: "NO-SUCH", MatterID: "PAIR"}}
	e.Sim.Advance(time.Second)
	if _, err := e.Client.DeleteMatters(ctx, pairs); err != nil {
		t.Fatal(err)
	}
	e.Sim.Advance(time.Second)
	if _, err := e.Client.UpsertMatters(ctx, pairs[1:2]); err != nil {
		t.Fatal(err)
	}
}

// checkTheOtherWrites checks the sharing, file and matter entries of the
// log (newest first) against the listings: each person's last sharing
// entry on a project is what its direct shares say (the level the entry
// names, or none after a removal); a deleted file is gone from its
// project's listing and get_files says when; a matter deletion's count of
// deleted matters is the listing's deleted at that time, less any an
// upsert logged after it restored.
func checkTheOtherWrites(t *testing.T, e *simtest.Env, entries []api.AuditEntry) {
	t.Helper()
	ctx := context.Background()
	direct := map[string]map[string]string{} // project -> email -> level
	if _, err := e.Client.Projects(api.ProjectQuery{}).Each(ctx, func(p *api.Project, _ api.RawItem) error {
		direct[p.ID] = map[string]string{}
		if p.Sharing == nil {
			return nil
		}
		var shares []struct {
			Email string `json:"dest_user_email"`
			Level string `json:"permission_level"`
		}
		_ = json.Unmarshal(p.Sharing.UserShares, &shares)
		for _, sh := range shares {
			direct[p.ID][strings.ToLower(sh.Email)] = sh.Level
		}
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	matters, _, err := e.Client.ClientMatters().Collect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// newest first, so that each person's last sharing entry comes first
	slices.SortStableFunc(entries, func(a, b api.AuditEntry) int { return b.Timestamp.Time.Compare(a.Timestamp.Time) })
	said := map[string]bool{} // project|email whose last entry was read
	seen := map[string]int{}
	restoredAfter := 0
	for _, x := range entries {
		var d struct {
			ProjectID    string            `json:"project_id"`
			Users        []string          `json:"users"`
			AccessLevels map[string]string `json:"access_levels"`
			FileID       string            `json:"file_id"`
			Operation    string            `json:"operation"`
			Deleted      *int              `json:"deleted"`
			Restored     *int              `json:"restored"`
		}
		if err := json.Unmarshal(x.Data, &d); err != nil {
			t.Errorf("entry %s (%s): data %s: %v", x.ID, x.Type, x.Data, err)
			continue
		}
		seen[string(x.Type)]++
		switch string(x.Type) {
		case sim.AuditAPIUpdateUsers, sim.AuditAPIRemoveUsers:
			shares, live := direct[d.ProjectID]
			if !live {
				continue // the project was deleted since: its shares are not listed
			}
			for _, u := range d.Users {
				k := d.ProjectID + "|" + strings.ToLower(u)
				if said[k] {
					continue
				}
				said[k] = true
				got, has := shares[strings.ToLower(u)]
				// the listing words a share's level as EDIT and VIEW (facts §: permission_level)
				switch want := map[string]string{"MANAGE": "EDIT", "READ": "VIEW"}[d.AccessLevels[u]]; {
				case string(x.Type) == sim.AuditAPIRemoveUsers && has:
					t.Errorf("entry %s removes %s from project %s, whose direct shares still give them %s", x.ID, u, d.ProjectID, got)
				case string(x.Type) == sim.AuditAPIUpdateUsers && (want == "" || got != want):
					t.Errorf("entry %s gives %s %q on project %s, whose direct shares say %q", x.ID, u, want, d.ProjectID, got)
				}
			}
		case sim.AuditAPIDeleteFile:
			if _, live := direct[d.ProjectID]; live {
				files, _, err := e.Client.ProjectFiles(d.ProjectID, api.FileQuery{}).Collect(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if slices.ContainsFunc(files, func(f api.ProjectFile) bool { return f.ID == d.FileID }) {
					t.Errorf("entry %s deletes file %s, which project %s still lists", x.ID, d.FileID, d.ProjectID)
				}
			}
			got, err := e.Client.GetFiles(ctx, []string{d.FileID})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Value.DeletedAt == nil || got[0].Value.DeletedAt.Time.Truncate(time.Second) != x.Timestamp.Time.Truncate(time.Second) {
				t.Errorf("entry %s at %v deletes file %s; get_files answers %+v", x.ID, x.Timestamp, d.FileID, got)
			}
		case sim.AuditAPIMatters:
			switch {
			case d.Operation == "upsert" && d.Restored != nil:
				restoredAfter += *d.Restored
			case d.Operation == "delete" && d.Deleted == nil:
				t.Errorf("entry %s deletes matters and says not how many: %s", x.ID, x.Data)
			case d.Operation == "delete":
				at := 0
				for _, m := range matters {
					if m.Deleted() && m.DeletedAt.Time.Truncate(time.Second).Equal(x.Timestamp.Time.Truncate(time.Second)) {
						at++
					}
				}
				if at > *d.Deleted || at < *d.Deleted-restoredAfter {
					t.Errorf("entry %s deleted %d matters; the listing has %d deleted at %v (%d restored since)", x.ID, *d.Deleted, at, x.Timestamp, restoredAfter)
				}
			}
		}
	}
	for _, k := range []string{sim.AuditAPIUpdateUsers, sim.AuditAPIRemoveUsers, sim.AuditAPIDeleteFile, sim.AuditAPIMatters} {
		if seen[k] == 0 {
			t.Errorf("the log holds no %s entry: the walk checked nothing of it", k)
		}
	}
}
