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
		{&api.ProjectMetadata{FileCount: 3, MaxFileCount: 100000, ProjectSize: 1234, MaxProjectSize: 500_000_000_000}, "files 3/100000 · 1.2 kB/500 GB"},
		{&api.ProjectMetadata{FileCount: 3, MaxFileCount: 10, ProjectSize: api.InvalidInt, MaxProjectSize: 50}, "files 3/10"},
		{&api.ProjectMetadata{FileCount: 3, ProjectSize: 20, MaxProjectSize: 500}, "20/500 B"},
		{&api.ProjectMetadata{FileCount: 6, MaxFileCount: 100000, ProjectSize: 76_000_000, MaxProjectSize: 500_000_000_000}, "files 6/100000 · 76 MB/500 GB"},
		{&api.ProjectMetadata{FileCount: 0, MaxFileCount: 10, ProjectSize: 0, MaxProjectSize: 5_000_000_000}, "files 0/10 · 0/5 GB"},
		{nil, ""},
	} {
		if got := Usage(c.md); got != c.want {
			t.Errorf("Usage(%+v) = %q, want %q", c.md, got, c.want)
		}
	}
}
