package store

import (
	"path/filepath"
	"testing"
	"time"
)

// The access snapshots' project names, the latest snapshot winning, for
// one profile only.
func TestProjectNamesFromSnapshots(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Now()
	for _, c := range []struct{ profile, name string }{{"p", "Old Name"}, {"other", "Not Yours"}} {
		sn, err := s.OpenAccessSnapshot(c.profile, "me", now, now.Add(time.Minute), nil)
		if err != nil {
			t.Fatal(err)
		}
		ps := []AccessProject{{ID: "P-1", Name: c.name}, {ID: "p-2", Name: "Two"}}
		if err := s.PlanAccessProjects(sn.ID, ps, nil, 0, nil); err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if err := s.CommitAccessProject(sn.ID, p, nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.FinishAccessSnapshot(sn.ID, now); err != nil {
			t.Fatal(err)
		}
	}
	sn, _ := s.OpenAccessSnapshot("p", "me", now, now.Add(time.Minute), nil)
	if err := s.PlanAccessProjects(sn.ID, []AccessProject{{ID: "p-1", Name: "New Name"}}, nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	names, err := s.ProjectNames("p")
	if err != nil || names["p-1"] != "New Name" || names["p-2"] != "Two" || len(names) != 2 {
		t.Errorf("names %v %v", names, err)
	}
}
