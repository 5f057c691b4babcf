package store

import (
	"path/filepath"
	"testing"
)

// TestAProfileKeepsItsWorkspace: the workspace login learnt is kept with
// the profile, replaced by the next login's, and cleared by a login that
// learnt none.
func TestAProfileKeepsItsWorkspace(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, ws := range [][2]string{{"w1", "Harrowgate LLP"}, {"w2", "Other Chambers"}, {"", ""}} {
		if err := s.SaveProfile(Profile{Name: "p", Region: "eu", WorkspaceID: ws[0], WorkspaceName: ws[1]}); err != nil {
			t.Fatal(err)
		}
		p, err := s.Profile("p")
		if err != nil || p.WorkspaceID != ws[0] || p.WorkspaceName != ws[1] {
			t.Errorf("saved %v, read %q %q (%v)", ws, p.WorkspaceID, p.WorkspaceName, err)
		}
	}
}
