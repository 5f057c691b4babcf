package sim_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

type failedUser struct {
	Email  string `json:"email"`
	Reason string `json:"reason"`
}

type postUsersAnswer struct {
	Status string `json:"status"`
	Data   struct {
		ProjectID string `json:"project_id"`
		Added     []struct {
			Email       string `json:"email"`
			AccessLevel string `json:"access_level"`
		} `json:"added"`
		Updated []struct {
			Email               string `json:"email"`
			AccessLevel         string `json:"access_level"`
			PreviousAccessLevel string `json:"previous_access_level"`
		} `json:"updated"`
		Failed []failedUser `json:"failed"`
	} `json:"data"`
}

type deleteUsersAnswer struct {
	Status string `json:"status"`
	Data   struct {
		ProjectID string       `json:"project_id"`
		Removed   []string     `json:"removed"`
		Failed    []failedUser `json:"failed"`
	} `json:"data"`
}

type userShare struct {
	DestUserEmail   string `json:"dest_user_email"`
	PermissionLevel string `json:"permission_level"`
}

// directShares maps email -> permission_level of a project's user_shares
// in the workspace listing (what tells direct from inherited).
func (h *harness) directShares(pid string) map[string]string {
	h.t.Helper()
	for page := 1; ; page++ {
		var body struct {
			Response struct {
				Content struct {
					Projects []struct {
						ID      string `json:"id"`
						Sharing struct {
							UserCount  int         `json:"user_count"`
							UserShares []userShare `json:"user_shares"`
						} `json:"sharing"`
					} `json:"projects"`
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
			if p.ID == pid {
				out := map[string]string{}
				for _, s := range p.Sharing.UserShares {
					out[s.DestUserEmail] = s.PermissionLevel
				}
				if p.Sharing.UserCount != len(out) {
					h.t.Fatalf("user_count %d, %d user_shares", p.Sharing.UserCount, len(out))
				}
				return out
			}
		}
		if page >= body.Response.Content.Pagination.TotalPages {
			h.t.Fatalf("project %s not listed", pid)
		}
	}
}

func (h *harness) postUsers(token, pid string, users ...map[string]string) (int, postUsersAnswer) {
	h.t.Helper()
	r := h.do("POST", "/api/v1/vault/projects/"+pid+"/users", token, map[string]any{"users": users})
	var a postUsersAnswer
	if r.status == 200 {
		r.json(h.t, &a)
	}
	return r.status, a
}

func (h *harness) deleteUsers(token, pid string, emails ...string) (int, deleteUsersAnswer) {
	h.t.Helper()
	r := h.do("DELETE", "/api/v1/vault/projects/"+pid+"/users", token, map[string]any{"emails": emails})
	var a deleteUsersAnswer
	if r.status == 200 {
		r.json(h.t, &a)
	}
	return r.status, a
}

func u(email, level string) map[string]string {
	return map[string]string{"email": email, "access_level": level}
}

// outsider is a workspace user with no access at all to p (not the owner,
// no direct share, not reached through a group or the workspace).
func (h *harness) outsider(pid string, not ...string) string {
	h.t.Helper()
	acc := h.access(pid)
	for _, e := range h.allEmails() {
		if _, ok := acc[e]; !ok && !slices.Contains(not, e) {
			return e
		}
	}
	h.t.Fatal("no outsider")
	return ""
}

// TestPostProjectUsersIsAdditive: POST adds and updates the users it
// names and leaves everyone else as they were; the owner, an unknown
// address, an inactive user and the token's own user fail one by one in
// failed with a reason, never the whole request; the listing's
// user_shares and the users endpoint agree after it; project_updated_at
// moves only when something changed.
func TestPostProjectUsersIsAdditive(t *testing.T) {
	h := newHarness(t)
	p := h.projectByName("Bellhaven Shipping — Share Purchase")
	before := h.access(p.ID)
	direct := h.directShares(p.ID)
	owner := ""
	for e, l := range before {
		if _, ok := direct[e]; !ok && l == "MANAGE" {
			owner = e
		}
	}
	if owner == "" {
		t.Fatal("no owner found")
	}
	self := h.sim.Tokens()[0].UserEmail
	var existing, existingLevel string
	for e, l := range direct {
		if e != self && (existing == "" || e < existing) {
			existing, existingLevel = e, l
		}
	}
	newcomer := h.outsider(p.ID, self)
	inactive := h.outsider(p.ID, self, newcomer)
	if err := h.sim.Deactivate(inactive); err != nil {
		t.Fatal(err)
	}
	flip := map[string]string{"VIEW": "MANAGE", "EDIT": "READ"}[existingLevel]
	prevWant := map[string]string{"VIEW": "READ", "EDIT": "MANAGE"}[existingLevel]
	stamp := h.allProjects()[p.ID].ProjectUpdatedAt
	h.sim.Advance(time.Minute)

	status, a := h.postUsers(h.admin(), p.ID, u(newcomer, "READ"), u(existing, flip), u(owner, "READ"),
		u("nobody@example.com", "READ"), u(inactive, "MANAGE"), u(self, "READ"), u(newcomer, "MANAGE"), u(existing, "OWNER"))
	if status != 200 || a.Status != "COMPLETED" || a.Data.ProjectID != p.ID {
		t.Fatalf("POST: %d %+v", status, a)
	}
	if len(a.Data.Added) != 1 || a.Data.Added[0].Email != newcomer || a.Data.Added[0].AccessLevel != "READ" {
		t.Errorf("added %+v, want %s READ", a.Data.Added, newcomer)
	}
	if len(a.Data.Updated) != 1 || a.Data.Updated[0].Email != existing || a.Data.Updated[0].AccessLevel != flip || a.Data.Updated[0].PreviousAccessLevel != prevWant {
		t.Errorf("updated %+v, want %s %s (previous %s)", a.Data.Updated, existing, flip, prevWant)
	}
	reasons := map[string]string{}
	for _, f := range a.Data.Failed {
		if f.Reason == "" {
			t.Errorf("failed %s without a reason", f.Email)
		}
		reasons[f.Email+" "+f.Reason] = f.Reason
	}
	for _, want := range []string{owner + " " + sim.ReasonOwner, "nobody@example.com " + sim.ReasonUnknownUser,
		inactive + " " + sim.ReasonInactiveUser, self + " " + sim.ReasonSelf, newcomer + " " + sim.ReasonRepeated,
		existing + " " + sim.ReasonRepeated} {
		if _, ok := reasons[want]; !ok {
			t.Errorf("failed has no %q: %+v", want, a.Data.Failed)
		}
	}
	if len(a.Data.Failed) != 6 {
		t.Errorf("%d failed, want 6: %+v", len(a.Data.Failed), a.Data.Failed)
	}
	after := h.access(p.ID)
	for e, l := range before {
		if e != existing && after[e] != l {
			t.Errorf("%s: %s became %s, but was not changed", e, l, after[e])
		}
	}
	if after[newcomer] != "READ" || after[existing] != flip {
		t.Errorf("after: %s %q, %s %q", newcomer, after[newcomer], existing, after[existing])
	}
	if _, ok := after[inactive]; ok {
		t.Errorf("an inactive user is listed: %s", inactive)
	}
	d := h.directShares(p.ID)
	if d[newcomer] != "VIEW" || d[existing] != map[string]string{"READ": "VIEW", "MANAGE": "EDIT"}[flip] {
		t.Errorf("user_shares %v", d)
	}
	if _, ok := d[owner]; ok {
		t.Error("the owner got a direct share")
	}
	moved := h.allProjects()[p.ID].ProjectUpdatedAt
	if moved <= stamp {
		t.Errorf("project_updated_at %s did not move from %s", moved, stamp)
	}
	// The same again changes nothing: the answer says updated with the
	// same level, and the project's time stays.
	h.sim.Advance(time.Minute)
	_, again := h.postUsers(h.admin(), p.ID, u(newcomer, "READ"))
	if len(again.Data.Updated) != 1 || again.Data.Updated[0].PreviousAccessLevel != "READ" || len(again.Data.Added) != 0 {
		t.Errorf("a repeated grant: %+v", again.Data)
	}
	if got := h.allProjects()[p.ID].ProjectUpdatedAt; got != moved {
		t.Errorf("a grant that changed nothing moved project_updated_at to %s", got)
	}
}

// TestDeleteProjectUsersRemovesDirectSharesOnly: DELETE removes a direct
// share; someone who also reaches the project another way keeps that
// access; someone reached only by inheritance, the owner, an unknown
// address, an inactive user and the token's user fail one by one.
func TestDeleteProjectUsersRemovesDirectSharesOnly(t *testing.T) {
	h := newHarness(t)
	p := h.projectByName("Juniper Health — Data Protection Audit") // shared with the workspace (READ)
	acc := h.access(p.ID)
	direct := h.directShares(p.ID)
	var owner string
	var readers []string // READ through the workspace share only
	for e, l := range acc {
		_, d := direct[e]
		switch {
		case !d && l == "MANAGE" && owner == "":
			owner = e
		case !d && l == "READ":
			readers = append(readers, e)
		}
	}
	slices.Sort(readers)
	inherited, both := readers[0], readers[1]
	// A direct MANAGE on a workspace-shared project: removed, the person
	// still reads it through the workspace.
	if st, a := h.postUsers(h.admin(), p.ID, u(both, "MANAGE")); st != 200 || len(a.Data.Added) != 1 {
		t.Fatalf("grant: %d %+v", st, a)
	}
	self := h.sim.Tokens()[0].UserEmail
	inactive := ""
	for e := range direct {
		if e != self && (inactive == "" || e < inactive) {
			inactive = e
		}
	}
	if err := h.sim.Deactivate(inactive); err != nil {
		t.Fatal(err)
	}
	stamp := h.allProjects()[p.ID].ProjectUpdatedAt
	h.sim.Advance(time.Minute)
	status, a := h.deleteUsers(h.admin(), p.ID, both, inherited, owner, "nobody@example.com", inactive, self)
	if status != 200 || a.Status != "COMPLETED" || a.Data.ProjectID != p.ID {
		t.Fatalf("DELETE: %d %+v", status, a)
	}
	if !slices.Equal(a.Data.Removed, []string{both}) {
		t.Errorf("removed %v, want [%s]", a.Data.Removed, both)
	}
	want := map[string]string{inherited: sim.ReasonNotDirect, owner: sim.ReasonOwner, "nobody@example.com": sim.ReasonUnknownUser,
		inactive: sim.ReasonInactiveUser, self: sim.ReasonSelf}
	for _, f := range a.Data.Failed {
		if want[f.Email] != f.Reason {
			t.Errorf("failed %s: %q, want %q", f.Email, f.Reason, want[f.Email])
		}
		delete(want, f.Email)
	}
	if len(want) > 0 {
		t.Errorf("not in failed: %v", want)
	}
	after := h.access(p.ID)
	if after[both] != "READ" {
		t.Errorf("%s after the removal of the direct share: %q, want READ through the workspace share", both, after[both])
	}
	if after[inherited] != "READ" || after[owner] != "MANAGE" {
		t.Errorf("inherited or owner access changed: %q %q", after[inherited], after[owner])
	}
	if _, ok := h.directShares(p.ID)[both]; ok {
		t.Error("the direct share is still listed")
	}
	if h.allProjects()[p.ID].ProjectUpdatedAt <= stamp {
		t.Error("a removal did not move project_updated_at")
	}
}

// TestProjectUsersWritesAreAuditedAndGuarded: each accepted POST and
// DELETE writes one entry of the token's user naming the project and
// every user changed; a read-only token (Vault sharing (view only)), a
// workspace with sharing off, an unknown project and a bad body are
// refused before anything changes; the writes draw on the vault budget.
func TestProjectUsersWritesAreAuditedAndGuarded(t *testing.T) {
	h := newHarness(t)
	p := h.projectByName("Bellhaven Shipping — Share Purchase")
	who := h.outsider(p.ID, h.sim.Tokens()[0].UserEmail)
	n := len(h.sim.AuditEntries())
	h.postUsers(h.admin(), p.ID, u(who, "MANAGE"))
	h.deleteUsers(h.admin(), p.ID, who, "nobody@example.com")
	es := h.sim.AuditEntries()[n:]
	if len(es) != 2 || es[0].Type != sim.AuditAPIUpdateUsers || es[1].Type != sim.AuditAPIRemoveUsers {
		t.Fatalf("entries %+v", es)
	}
	for _, e := range es {
		if e.User != h.sim.Tokens()[0].UserEmail || e.Extra["project_id"] != p.ID {
			t.Errorf("entry %+v", e)
		}
		b, _ := json.Marshal(e.Extra)
		if !strings.Contains(string(b), who) || strings.Contains(string(b), "nobody@example.com") {
			t.Errorf("entry data %s: want the changed user and not the failed one", b)
		}
	}
	ro := h.sim.Token("vault-readonly")
	for name, st := range map[string]int{
		"read-only POST":   h.do("POST", "/api/v1/vault/projects/"+p.ID+"/users", ro, map[string]any{"users": []any{u(who, "READ")}}).status,
		"read-only DELETE": h.do("DELETE", "/api/v1/vault/projects/"+p.ID+"/users", ro, map[string]any{"emails": []string{who}}).status,
	} {
		if st != 403 {
			t.Errorf("%s: %d, want 403", name, st)
		}
	}
	for name, c := range map[string]struct {
		method, path string
		body         any
		want         int
	}{
		"unknown project":  {"POST", "/api/v1/vault/projects/00000000-0000-4000-8000-000000000000/users", map[string]any{"users": []any{u(who, "READ")}}, 404},
		"no users":         {"POST", "/api/v1/vault/projects/" + p.ID + "/users", map[string]any{"users": []any{}}, 400},
		"no body":          {"DELETE", "/api/v1/vault/projects/" + p.ID + "/users", nil, 400},
		"not JSON":         {"DELETE", "/api/v1/vault/projects/" + p.ID + "/users", "{", 400},
		"an unknown field": {"POST", "/api/v1/vault/projects/" + p.ID + "/users", map[string]any{"users": []any{u(who, "READ")}, "notify": true}, 400},
		"user_ids":         {"DELETE", "/api/v1/vault/projects/" + p.ID + "/users", map[string]any{"user_ids": []string{"x"}}, 400},
	} {
		if r := h.do(c.method, c.path, h.admin(), c.body); r.status != c.want {
			t.Errorf("%s: %d %s, want %d", name, r.status, r.body, c.want)
		}
	}
	h.sim.SetVaultSharing(false)
	if st, _ := h.postUsers(h.admin(), p.ID, u(who, "READ")); st != 403 {
		t.Errorf("sharing off: %d, want 403", st)
	}
	h.sim.SetVaultSharing(true)
	if _, ok := h.access(p.ID)[who]; ok {
		t.Errorf("a refused request changed %s's access", who)
	}
	if got := len(h.sim.AuditEntries()) - n; got != 2 {
		t.Errorf("%d entries after the refusals, want the 2 accepted requests'", got)
	}

	// The vault budget: the eleventh vault request of a minute is refused.
	lim := newHarness(t, func(o *sim.Options) { o.NoRateLimit = false })
	q := lim.projectByName("Bellhaven Shipping — Share Purchase")
	codes := []int{}
	for i := 0; i < 11; i++ {
		st, _ := lim.deleteUsers(lim.admin(), q.ID, "nobody@example.com")
		codes = append(codes, st)
	}
	if codes[9] != 200 || codes[10] != 429 {
		t.Errorf("statuses %v: want ten answered and the eleventh 429", codes)
	}
}
