package access

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultdeck/vaultdeck/store"
)

// Finished returns the profile's finished snapshots, newest first.
func Finished(s Snapshots, profile string) ([]store.AccessSnapshot, error) {
	all, err := s.AccessSnapshots(profile)
	if err != nil {
		return nil, err
	}
	var out []store.AccessSnapshot
	for _, sn := range all {
		if sn.Finished() {
			out = append(out, sn)
		}
	}
	return out, nil
}

// Pick returns the finished snapshot id (0: the last finished one).
func Pick(s Snapshots, profile string, id int64) (store.AccessSnapshot, error) {
	fin, err := Finished(s, profile)
	if err != nil {
		return store.AccessSnapshot{}, err
	}
	if len(fin) == 0 {
		return store.AccessSnapshot{}, ErrNoSnapshot
	}
	if id == 0 {
		return fin[0], nil
	}
	for _, sn := range fin {
		if sn.ID == id {
			return sn, nil
		}
	}
	return store.AccessSnapshot{}, fmt.Errorf("no finished access snapshot %d for this profile; `vaultdeck access snapshots` lists them", id)
}

// Person is one user with the number of projects they can reach.
type Person struct {
	Email    string `json:"email"`
	Name     string `json:"name"`
	UserID   string `json:"user_id"`
	Projects int    `json:"projects"`
	Manage   int    `json:"manage"` // of which with MANAGE
}

// People summarises a snapshot's grants by person, most projects first.
func People(grants []store.AccessGrant) []Person {
	idx := map[string]int{}
	var out []Person
	for _, g := range grants {
		key := strings.ToLower(g.Email)
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, Person{Email: g.Email, Name: g.Name, UserID: g.UserID})
		}
		out[i].Projects++
		if strings.EqualFold(g.AccessLevel, LevelManage) {
			out[i].Manage++
		}
	}
	slices.SortStableFunc(out, func(a, b Person) int {
		return cmp.Or(b.Projects-a.Projects, strings.Compare(strings.ToLower(a.Email), strings.ToLower(b.Email)))
	})
	return out
}

// Change kinds of a diff.
const (
	Gained  = "gained"
	Lost    = "lost"
	Changed = "changed"
)

// Change is one difference in a person's access to a project between two
// snapshots. From is "" for gained, To is "" for lost.
type Change struct {
	Kind        string `json:"change"`
	Email       string `json:"email"`
	Name        string `json:"name"`
	ProjectID   string `json:"project_id"`
	ProjectName string `json:"project_name"`
	From        string `json:"from_access_level"`
	To          string `json:"to_access_level"`
}

// Diff lists the grants gained, lost and changed in level from old to new,
// ordered by email, then project name. Emails compare case-insensitively.
func Diff(old, new []store.AccessGrant) []Change {
	key := func(g store.AccessGrant) string { return strings.ToLower(g.Email) + "\x00" + g.ProjectID }
	before := make(map[string]store.AccessGrant, len(old))
	for _, g := range old {
		before[key(g)] = g
	}
	var out []Change
	for _, g := range new {
		k := key(g)
		o, ok := before[k]
		delete(before, k)
		switch {
		case !ok:
			out = append(out, Change{Kind: Gained, Email: g.Email, Name: g.Name, ProjectID: g.ProjectID, ProjectName: g.ProjectName, To: g.AccessLevel})
		case !strings.EqualFold(o.AccessLevel, g.AccessLevel):
			out = append(out, Change{Kind: Changed, Email: g.Email, Name: g.Name, ProjectID: g.ProjectID, ProjectName: g.ProjectName, From: o.AccessLevel, To: g.AccessLevel})
		}
	}
	for _, o := range before {
		out = append(out, Change{Kind: Lost, Email: o.Email, Name: o.Name, ProjectID: o.ProjectID, ProjectName: o.ProjectName, From: o.AccessLevel})
	}
	slices.SortFunc(out, func(a, b Change) int {
		return cmp.Or(strings.Compare(strings.ToLower(a.Email), strings.ToLower(b.Email)),
			strings.Compare(a.ProjectName, b.ProjectName), strings.Compare(a.ProjectID, b.ProjectID))
	})
	return out
}

// DiffSnapshots compares two finished snapshots of the profile; ids of 0
// take the last two (older first).
func DiffSnapshots(s Snapshots, profile string, oldID, newID int64) (store.AccessSnapshot, store.AccessSnapshot, []Change, error) {
	fin, err := Finished(s, profile)
	if err != nil {
		return store.AccessSnapshot{}, store.AccessSnapshot{}, nil, err
	}
	if oldID == 0 && newID == 0 {
		if len(fin) < 2 {
			return store.AccessSnapshot{}, store.AccessSnapshot{}, nil, fmt.Errorf("a diff needs two finished access snapshots; this profile has %d (run `vaultdeck access crawl` again later)", len(fin))
		}
		oldID, newID = fin[1].ID, fin[0].ID
	}
	var a, b store.AccessSnapshot
	if a, err = Pick(s, profile, oldID); err != nil {
		return a, b, nil, err
	}
	if b, err = Pick(s, profile, newID); err != nil {
		return a, b, nil, err
	}
	og, err := s.AccessGrants(a.ID, store.AccessGrantFilter{})
	if err != nil {
		return a, b, nil, err
	}
	ng, err := s.AccessGrants(b.ID, store.AccessGrantFilter{})
	if err != nil {
		return a, b, nil, err
	}
	return a, b, Diff(og, ng), nil
}
