package person

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

type mapCache map[string][]byte

func (m mapCache) Get(key string) ([]byte, time.Time, bool, error) {
	b, ok := m[key]
	return b, time.Now(), ok, nil
}
func (m mapCache) Put(key string, body []byte, _ time.Time) error { m[key] = body; return nil }

// TestAProjectOnTwoCachedPagesCountsOnce: the cached listing's pages
// shifted while they were read (a project added), so one project the
// person created is on pages 1 and 2: their footprint counts it once.
func TestAProjectOnTwoCachedPagesCountsOnce(t *testing.T) {
	c := mapCache{}
	mine := api.Project{ID: "p2", Name: "Mine", CreatorEmail: "ada@firm.com"}
	pages := [][]api.Project{{{ID: "p1", CreatorEmail: "bob@firm.com"}, mine}, {mine, {ID: "p3", CreatorEmail: "ada@firm.com", Name: "Also mine"}}}
	for i, ps := range pages {
		pg := api.ProjectPage{Projects: ps}
		pg.Pagination.Page, pg.Pagination.PerPage, pg.Pagination.Total, pg.Pagination.TotalPages = api.Int(i+1), 2, 4, 2
		b, _ := json.Marshal(pg)
		c[fmt.Sprintf(CacheProjectPage, i+1)] = b
	}
	r := &Report{Email: "ada@firm.com"}
	if err := readCreated(Local{Cache: c}, r); err != nil {
		t.Fatal(err)
	}
	if len(r.Created.Projects) != 2 {
		t.Errorf("created %d projects, want 2 (p2 once, p3): %+v", len(r.Created.Projects), r.Created.Projects)
	}
}
