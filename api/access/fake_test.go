package access_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// fakeSnapshots is an in-memory Snapshots with the store's semantics, so
// the job's rules are tested without SQLite (and again with it in
// store_test.go). failCommitAfter > 0 makes the Nth commit fail, as a
// crash would.
type fakeSnapshots struct {
	mu              sync.Mutex
	snaps           []*fakeSnap
	commits         int
	failCommitAfter int
}

type fakeSnap struct {
	store.AccessSnapshot
	owner    string
	until    time.Time
	projects map[string]store.AccessProject
	grants   map[string][]store.AccessGrant
}

func (f *fakeSnapshots) Unchanged() error { return nil }
func (f *fakeSnapshots) Check() error     { return nil }

func (f *fakeSnapshots) AccessSnapshots(profile string) ([]store.AccessSnapshot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []store.AccessSnapshot
	for i := len(f.snaps) - 1; i >= 0; i-- {
		s := f.snaps[i]
		if s.Profile != profile {
			continue
		}
		sn := s.AccessSnapshot
		sn.Projects, sn.Read, sn.Carried, sn.Grants = len(s.projects), 0, 0, 0
		for _, p := range s.projects {
			switch p.State {
			case store.AccessRead:
				sn.Read++
			case store.AccessCarried:
				sn.Carried++
			}
			sn.Grants += len(s.grants[p.ID])
		}
		sn.Pending = sn.Projects - sn.Read - sn.Carried
		out = append(out, sn)
	}
	return out, nil
}

func (f *fakeSnapshots) get(id int64) *fakeSnap {
	for _, s := range f.snaps {
		if s.ID == id {
			return s
		}
	}
	panic(fmt.Sprint("no snapshot ", id))
}

func (f *fakeSnapshots) OpenAccessSnapshot(profile, owner string, now, until time.Time, gone func(string) bool) (store.AccessSnapshot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.snaps {
		if s.Profile == profile && !s.Finished() {
			if s.owner != "" && s.owner != owner && s.until.After(now) && (gone == nil || !gone(s.owner)) {
				return store.AccessSnapshot{}, store.ErrAccessBusy
			}
			s.owner, s.until = owner, until
			return s.AccessSnapshot, nil
		}
	}
	s := &fakeSnap{AccessSnapshot: store.AccessSnapshot{ID: int64(len(f.snaps) + 1), Profile: profile, StartedAt: now}, owner: owner, until: until,
		projects: map[string]store.AccessProject{}, grants: map[string][]store.AccessGrant{}}
	f.snaps = append(f.snaps, s)
	return s.AccessSnapshot, nil
}

func (f *fakeSnapshots) RenewAccessLease(id int64, owner string, until time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.get(id)
	if s.owner != owner {
		return store.ErrAccessBusy
	}
	s.until = until
	return nil
}

func (f *fakeSnapshots) ReleaseAccessLease(id int64, owner string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s := f.get(id); s.owner == owner {
		s.owner = ""
	}
	return nil
}

func (f *fakeSnapshots) AccessProjects(id int64) ([]store.AccessProject, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []store.AccessProject
	for _, p := range f.get(id).projects {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b store.AccessProject) int { return strings.Compare(a.Name+a.ID, b.Name+b.ID) })
	return out, nil
}

func (f *fakeSnapshots) PlanAccessProjects(id int64, pending, carry []store.AccessProject, from int64, drop []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.get(id)
	for _, pid := range drop {
		delete(s.projects, pid)
		delete(s.grants, pid)
	}
	for _, p := range pending {
		p.State = store.AccessPending
		s.projects[p.ID] = p
		delete(s.grants, p.ID)
	}
	for _, p := range carry {
		p.State = store.AccessCarried
		s.projects[p.ID] = p
		var gs []store.AccessGrant
		for _, g := range f.get(from).grants[p.ID] {
			g.ProjectName = p.Name
			gs = append(gs, g)
		}
		s.grants[p.ID] = gs
	}
	return nil
}

func (f *fakeSnapshots) CommitAccessProject(id int64, p store.AccessProject, users []store.AccessGrant) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.commits++
	if f.failCommitAfter > 0 && f.commits >= f.failCommitAfter {
		return fmt.Errorf("disk full (commit %d)", f.commits)
	}
	s := f.get(id)
	p.State = store.AccessRead
	s.projects[p.ID] = p
	s.grants[p.ID] = slices.Clone(users)
	return nil
}

func (f *fakeSnapshots) AddAccessRequests(id int64, n int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.get(id).Requests += n
	return nil
}

func (f *fakeSnapshots) FinishAccessSnapshot(id int64, at time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.get(id)
	for _, p := range s.projects {
		if p.State == store.AccessPending {
			return fmt.Errorf("snapshot %d has pending projects", id)
		}
	}
	s.FinishedAt, s.owner = at, ""
	return nil
}

func (f *fakeSnapshots) AccessGrants(id int64, flt store.AccessGrantFilter) ([]store.AccessGrant, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []store.AccessGrant
	for _, gs := range f.get(id).grants {
		for _, g := range gs {
			if (flt.Email == "" || strings.EqualFold(flt.Email, g.Email)) && (flt.ProjectID == "" || flt.ProjectID == g.ProjectID) {
				out = append(out, g)
			}
		}
	}
	slices.SortFunc(out, func(a, b store.AccessGrant) int {
		return strings.Compare(strings.ToLower(a.Email)+"\x00"+a.ProjectName+a.ProjectID, strings.ToLower(b.Email)+"\x00"+b.ProjectName+b.ProjectID)
	})
	return out, nil
}
