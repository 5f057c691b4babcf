package sim_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

type listedProject struct {
	ID               string `json:"id"`
	Name             string `json:"name"`
	UpdatedAt        string `json:"updated_at"`
	ProjectUpdatedAt string `json:"project_updated_at"`
}

// allProjects pages through the project listing.
func (h *harness) allProjects() map[string]listedProject {
	h.t.Helper()
	out := map[string]listedProject{}
	for page := 1; ; page++ {
		var body struct {
			Response struct {
				Content struct {
					Projects   []listedProject `json:"projects"`
					Pagination struct {
						TotalPages int `json:"total_pages"`
					} `json:"pagination"`
				} `json:"content"`
			} `json:"response"`
		}
		r := h.get(fmt.Sprintf("/api/v1/vault/workspace/projects?per_page=100&page=%d", page))
		mustStatus(h.t, r, 200)
		r.json(h.t, &body)
		for _, p := range body.Response.Content.Projects {
			out[p.ID] = p
		}
		if page >= body.Response.Content.Pagination.TotalPages {
			return out
		}
	}
}

// access maps email -> level for one project's users.
func (h *harness) access(pid string) map[string]string {
	h.t.Helper()
	var u struct {
		Data struct {
			Users []struct {
				Email       string `json:"email"`
				AccessLevel string `json:"access_level"`
			} `json:"users"`
		} `json:"data"`
	}
	r := h.get("/api/v1/vault/projects/" + pid + "/users")
	mustStatus(h.t, r, 200)
	r.json(h.t, &u)
	out := map[string]string{}
	for _, x := range u.Data.Users {
		out[x.Email] = x.AccessLevel
	}
	return out
}

// TestShareMovesProjectUpdatedAt: a grant, a level change and a revocation
// each move project_updated_at (the service counts sharing as an update).
func TestShareMovesProjectUpdatedAt(t *testing.T) {
	h := newHarness(t)
	p := h.projectByName("Bellhaven Shipping — Share Purchase")
	before := h.allProjects()[p.ID]
	acc := h.access(p.ID)
	var email string
	for _, u := range h.allEmails() {
		if _, ok := acc[u]; !ok {
			email = u
			break
		}
	}
	steps := []struct{ level, want string }{{"READ", "READ"}, {"MANAGE", "MANAGE"}, {"", ""}}
	last := before.ProjectUpdatedAt
	for i, s := range steps {
		h.sim.Advance(time.Hour)
		mustStatus(t, h.do("POST", "/_sim/share", "", map[string]any{"project_id": p.ID, "email": email, "level": s.level}), 200)
		got := h.allProjects()[p.ID]
		if got.ProjectUpdatedAt <= last || got.ProjectUpdatedAt != got.UpdatedAt {
			t.Fatalf("step %d: project_updated_at %s after %s", i, got.ProjectUpdatedAt, last)
		}
		if lvl := h.access(p.ID)[email]; lvl != s.want {
			t.Fatalf("step %d: %s has %q, want %q", i, email, lvl, s.want)
		}
		last = got.ProjectUpdatedAt
	}
	// Bad requests change nothing.
	for _, b := range []map[string]any{
		{"project_id": p.ID, "email": email, "level": "OWNER"},
		{"project_id": p.ID, "email": "nobody@example.com", "level": "READ"},
		{"project_id": "00000000-0000-4000-8000-000000000000", "email": email, "level": "READ"},
		{"project_id": p.ID, "email": email},
	} {
		mustStatus(t, h.do("POST", "/_sim/share", "", b), 400)
	}
	if got := h.allProjects()[p.ID]; got.ProjectUpdatedAt != last {
		t.Fatal("a refused change moved project_updated_at")
	}
}

func (h *harness) allEmails() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range h.sim.Projects() {
		for e := range h.access(p.ID) {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// TestLargeWorkspaceForAccessReview: the large seed has 300+ projects,
// 200+ people reaching them (directly, through groups and workspace
// shares), and crossing a simulated midnight changes the access of a few
// projects, whose project_updated_at moves, and of no other.
func TestLargeWorkspaceForAccessReview(t *testing.T) {
	if testing.Short() {
		t.Skip("large seed")
	}
	h := newHarness(t, func(o *sim.Options) { o.Scale = sim.ScaleLarge })
	day1 := h.allProjects()
	if len(day1) < 300 {
		t.Fatalf("%d projects", len(day1))
	}
	before := map[string]map[string]string{}
	people := map[string]bool{}
	for id := range day1 {
		before[id] = h.access(id)
		for e := range before[id] {
			people[e] = true
		}
	}
	if len(people) < 200 {
		t.Fatalf("%d people reach a project", len(people))
	}
	// pinned is 10:00; the next midnight is 14 hours on.
	h.sim.Advance(20 * time.Hour)
	day2 := h.allProjects()
	moved, changed := 0, 0
	for id, p := range day2 {
		m := p.ProjectUpdatedAt != day1[id].ProjectUpdatedAt
		after := h.access(id)
		c := fmt.Sprint(after) != fmt.Sprint(before[id])
		if c && !m {
			t.Fatalf("access of %s changed but project_updated_at did not", p.Name)
		}
		if m {
			moved++
		}
		if c {
			changed++
		}
	}
	if changed == 0 || moved > 5 {
		t.Fatalf("after a simulated midnight: %d projects changed access, %d moved", changed, moved)
	}
	// No midnight crossed: no change.
	h.sim.Advance(time.Hour)
	for id, p := range h.allProjects() {
		if p.ProjectUpdatedAt != day2[id].ProjectUpdatedAt {
			t.Fatalf("%s moved without a midnight", p.Name)
		}
	}
}
