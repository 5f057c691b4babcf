package projectview

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// TestUsageReadsAgainstTheLimits: the head, and the halves the
// interface's numbers can mean.
func TestUsageReadsAgainstTheLimits(t *testing.T) {
	for _, c := range []struct {
		md   *api.ProjectMetadata
		want string
	}{
		{&api.ProjectMetadata{FileCount: 950, MaxFileCount: 1000, ProjectSize: 4_200_000_000, MaxProjectSize: 5_000_000_000}, "files 950/1000 · 4.2/5 GB"},
		{&api.ProjectMetadata{FileCount: 3, MaxFileCount: 100000, ProjectSize: 1234, MaxProjectSize: 500_000_000_000}, "files 3/100000 · 0/500 GB"},
		{&api.ProjectMetadata{FileCount: 3, MaxFileCount: 10, ProjectSize: api.InvalidInt, MaxProjectSize: 50}, "files 3/10"},
		{&api.ProjectMetadata{FileCount: 3, ProjectSize: 20, MaxProjectSize: 500}, "20/500 B"},
		{nil, ""},
	} {
		if got := Usage(c.md); got != c.want {
			t.Errorf("Usage(%+v) = %q, want %q", c.md, got, c.want)
		}
	}
}
