package store_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// longestTransaction is the most statements one transaction of trace made.
func longestTransaction(trace []storefault.Point) int {
	longest, n := 0, 0
	for _, p := range trace {
		switch p.Kind {
		case "begin":
			n = 0
		case "exec":
			n++
			longest = max(longest, n)
		}
	}
	return longest
}

// TestAnAccessPlanWritesInShortTransactions: the crawl's plan of a large
// workspace (every project carried from the last snapshot with its users)
// was one transaction, which held the database's write lock for seconds
// (3.4 s for 10,000 projects) and every other process's writes with it: an
// upload's journal waited or failed. It now writes in transactions of a
// bounded number of projects, and the plan is whole in the end.
func TestAnAccessPlanWritesInShortTransactions(t *testing.T) {
	inj := storefault.New()
	st, err := inj.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const projects = 2000
	now := time.Now()
	first, err := st.OpenAccessSnapshot("p", "me", now, now.Add(time.Hour), nil)
	if err != nil {
		t.Fatal(err)
	}
	var ps []store.AccessProject
	for i := range projects {
		ps = append(ps, store.AccessProject{ID: fmt.Sprintf("proj-%04d", i), Name: fmt.Sprintf("Project %04d", i)})
	}
	if err := st.PlanAccessProjects(first.ID, ps, nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := st.CommitAccessProject(first.ID, p, []store.AccessGrant{{UserID: "u", Email: "a@x", AccessLevel: "READ"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.FinishAccessSnapshot(first.ID, now); err != nil {
		t.Fatal(err)
	}
	second, err := st.OpenAccessSnapshot("p", "me", now, now.Add(time.Hour), nil)
	if err != nil {
		t.Fatal(err)
	}
	inj.Reset()
	if err := st.PlanAccessProjects(second.ID, ps[:projects/2], ps[projects/2:], first.ID, nil); err != nil {
		t.Fatal(err)
	}
	if n := longestTransaction(inj.Trace()); n > 1000 {
		t.Fatalf("one transaction of the plan made %d statements", n)
	}
	got, err := st.AccessProjects(second.ID)
	if err != nil {
		t.Fatal(err)
	}
	carried := 0
	for _, p := range got {
		if p.State == "carried" {
			carried++
		}
	}
	if len(got) != projects || carried != projects/2 {
		t.Fatalf("the plan holds %d projects, %d carried", len(got), carried)
	}
	grants, err := st.AccessGrants(second.ID, store.AccessGrantFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(grants) != projects/2 {
		t.Fatalf("%d grants carried, want %d", len(grants), projects/2)
	}
}
