package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Sharing changes. The service counts a sharing change as an update of the
// project, so project_updated_at moves: an access review re-reads only the
// projects whose time moved since its last snapshot, and these changes are
// what it must find.

// Share gives the workspace user with email direct access to a project at
// level READ or MANAGE (a new grant or a changed level), or revokes the
// direct grant when level is "". The project's updated time becomes now.
func (s *Server) Share(projectID, email, level string) error {
	now := s.lock()
	defer s.mu.Unlock()
	p := s.st.liveProject(projectID)
	if p == nil {
		return errors.New("project not found")
	}
	i := slices.IndexFunc(s.st.users, func(u *user) bool { return strings.EqualFold(u.Email, strings.TrimSpace(email)) })
	if i < 0 {
		return fmt.Errorf("no workspace user %q", email)
	}
	u := s.st.users[i]
	if u == p.Owner {
		return errors.New("the owner's access cannot be changed")
	}
	level = strings.ToUpper(strings.TrimSpace(level))
	if level != "" && level != "READ" && level != "MANAGE" {
		return fmt.Errorf("level must be READ, MANAGE or \"\" (revoke), not %q", level)
	}
	p.setShare(u, level, now)
	return nil
}

// setShare applies one direct grant, level change or (level "") revocation.
func (p *project) setShare(u *user, level string, now time.Time) {
	j := slices.IndexFunc(p.UserShares, func(sh share) bool { return sh.User == u })
	switch {
	case level == "" && j >= 0:
		p.UserShares = slices.Delete(p.UserShares, j, j+1)
	case level == "":
		return // nothing to revoke: not a change
	case j >= 0:
		p.UserShares[j].Level = level
	default:
		p.UserShares = append(p.UserShares, share{User: u, Level: level, CreatedAt: now})
	}
	p.UpdatedAt = now
}

// churnCatchUp bounds how many simulated days of sharing changes are made
// up after a long jump of the clock.
const churnCatchUp = 30

// churn applies the day's sharing changes each time the simulator clock
// crosses a UTC midnight: st.churnPerDay grants, revocations and level
// changes on random projects, each at its own time in the first hours of
// the new day (never after now). Like the audit trickle, it runs when the
// clock is read, so nothing works in the background.
func (st *state) churn(now time.Time) {
	if st.churnPerDay == 0 {
		return
	}
	today := now.Truncate(24 * time.Hour)
	if !today.After(st.churnDay) {
		return
	}
	if days := int(today.Sub(st.churnDay) / (24 * time.Hour)); days > churnCatchUp {
		st.churnDay = today.Add(-churnCatchUp * 24 * time.Hour)
	}
	live := st.liveProjectsByID()
	for st.churnDay.Before(today) {
		st.churnDay = st.churnDay.Add(24 * time.Hour)
		window := min(now.Sub(st.churnDay), 8*time.Hour)
		for k := 0; k < st.churnPerDay && len(live) > 0; k++ {
			at := st.churnDay
			if window > 0 {
				at = at.Add(time.Duration(st.churnRNG.Int64N(int64(window)))).Truncate(time.Microsecond)
			}
			st.changeSharing(live[st.churnRNG.IntN(len(live))], at)
		}
	}
}

// changeSharing makes one change a colleague might make on p: revoke a
// direct grant, flip its level, or grant someone new.
func (st *state) changeSharing(p *project, at time.Time) {
	rng := st.churnRNG
	if n := len(p.UserShares); n > 0 && rng.IntN(3) > 0 {
		sh := p.UserShares[rng.IntN(n)]
		if rng.IntN(2) == 0 {
			p.setShare(sh.User, "", at)
		} else {
			p.setShare(sh.User, map[string]string{"READ": "MANAGE", "MANAGE": "READ"}[sh.Level], at)
		}
		return
	}
	for tries := 0; tries < 10; tries++ {
		u := st.users[rng.IntN(len(st.users))]
		if u != p.Owner && !slices.ContainsFunc(p.UserShares, func(sh share) bool { return sh.User == u }) {
			p.setShare(u, []string{"READ", "MANAGE"}[rng.IntN(2)], at)
			return
		}
	}
}

// liveProjectsByID lists the active projects other than examples in id
// order, so random picks do not depend on map iteration.
func (st *state) liveProjectsByID() []*project {
	var out []*project
	for _, p := range st.projects {
		if !p.Deleted && !p.IsExample && p.DeleteDue.IsZero() {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *project) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// The service's sharing endpoints (public-api-facts §4.9): POST adds or
// updates the users it names at a level, additively (nobody else
// changes); DELETE removes direct workspace-user shares only, so access a
// person inherits from a workspace or group share stays. Both fail a user
// one by one in failed (the whole request stands) and are audited once
// per accepted request, naming the users changed.

// The reasons a user fails in a sharing answer. The service's wording is
// not documented; a client shows them as sent and never parses them.
const (
	ReasonUnknownUser  = "No active workspace user has this e-mail address"
	ReasonInactiveUser = "This user is inactive"
	ReasonOwner        = "The project owner's access cannot be changed"
	ReasonSelf         = "You cannot change your own access"
	ReasonRepeated     = "This user is named more than once in the request"
	ReasonBadLevel     = "access_level must be MANAGE or READ"
	ReasonNotDirect    = "This user has no direct access to the project; inherited access is not removed here"
)

// Audit types of the sharing endpoints (the simulator's names: none is
// documented).
const (
	AuditAPIUpdateUsers = "api:vault_update_project_users"
	AuditAPIRemoveUsers = "api:vault_remove_project_users"
)

// Deactivate makes the workspace user with email inactive: they no
// longer reach any project (neither listing shows them) and sharing
// requests naming them fail. Tests and /_sim/deactivate use it.
func (s *Server) Deactivate(email string) error {
	s.lock()
	defer s.mu.Unlock()
	u := s.st.userByEmail(email)
	if u == nil {
		return fmt.Errorf("no workspace user %q", email)
	}
	u.Inactive = true
	return nil
}

// userByEmail finds a workspace user, active or not, ignoring case.
func (st *state) userByEmail(email string) *user {
	i := slices.IndexFunc(st.users, func(u *user) bool { return strings.EqualFold(u.Email, strings.TrimSpace(email)) })
	if i < 0 {
		return nil
	}
	return st.users[i]
}

type failedJSON struct {
	Email  string `json:"email"`
	Reason string `json:"reason"`
}

// whoFails is the reason the user named by email cannot be changed on p
// through tok, or "" with the user. seen holds the addresses already
// named in this request.
func (st *state) whoFails(p *project, tok *Token, email string, seen map[string]bool) (*user, string) {
	key := strings.ToLower(strings.TrimSpace(email))
	if seen[key] {
		return nil, ReasonRepeated
	}
	seen[key] = true
	if strings.EqualFold(key, tok.UserEmail) {
		return nil, ReasonSelf
	}
	u := st.userByEmail(key)
	switch {
	case u == nil:
		return nil, ReasonUnknownUser
	case u.Inactive:
		return nil, ReasonInactiveUser
	case u == p.Owner:
		return nil, ReasonOwner
	}
	return u, ""
}

// readSharingBody decodes a sharing request's JSON body strictly (an
// unknown field, the older copy's user_ids included, is refused: a
// request the client did not mean is not half-applied) into v, and
// answers 400 when it cannot.
func readSharingBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "Invalid request body: "+err.Error())
		return false
	}
	return true
}

// sharingProject is the project of a sharing request, or nil after
// answering why not.
func (s *Server) sharingProject(w http.ResponseWriter, r *http.Request) *project {
	if !s.st.vaultSharing {
		writeError(w, http.StatusForbidden, "Vault sharing is disabled for this workspace")
		return nil
	}
	p := s.st.liveProject(r.PathValue("id"))
	if p == nil {
		writeError(w, http.StatusNotFound, "Project not found")
	}
	return p
}

// handleUpdateProjectUsers serves POST /api/v1/vault/projects/{id}/users.
func (s *Server) handleUpdateProjectUsers(w http.ResponseWriter, r *http.Request, tok *Token) {
	var body struct {
		Users []struct {
			Email       string `json:"email"`
			AccessLevel string `json:"access_level"`
		} `json:"users"`
	}
	if !readSharingBody(w, r, &body) {
		return
	}
	if len(body.Users) == 0 {
		writeError(w, http.StatusBadRequest, "Missing users")
		return
	}
	now := s.lock()
	defer s.mu.Unlock()
	p := s.sharingProject(w, r)
	if p == nil {
		return
	}
	type added struct {
		Email       string `json:"email"`
		AccessLevel string `json:"access_level"`
	}
	type updated struct {
		Email               string `json:"email"`
		AccessLevel         string `json:"access_level"`
		PreviousAccessLevel string `json:"previous_access_level"`
	}
	res := struct {
		ProjectID string       `json:"project_id"`
		Added     []added      `json:"added"`
		Updated   []updated    `json:"updated"`
		Failed    []failedJSON `json:"failed"`
	}{ProjectID: p.ID, Added: []added{}, Updated: []updated{}, Failed: []failedJSON{}}
	seen := map[string]bool{}
	var changed []string
	levels := map[string]string{} // each changed user's new level, which the entry names
	for _, x := range body.Users {
		usr, why := s.st.whoFails(p, tok, x.Email, seen)
		level := x.AccessLevel
		if why == "" && level != "MANAGE" && level != "READ" {
			why = ReasonBadLevel
		}
		if why != "" {
			res.Failed = append(res.Failed, failedJSON{x.Email, why})
			continue
		}
		j := slices.IndexFunc(p.UserShares, func(sh share) bool { return sh.User == usr })
		if j < 0 {
			res.Added = append(res.Added, added{usr.Email, level})
		} else {
			res.Updated = append(res.Updated, updated{usr.Email, level, p.UserShares[j].Level})
			if p.UserShares[j].Level == level {
				continue // the same level: not a change
			}
		}
		p.setShare(usr, level, now)
		changed = append(changed, usr.Email)
		levels[usr.Email] = level
	}
	// the entry says what changed, levels too, so that the log can be read
	// against the project's shares (TestTheLogAgreesWithTheListings)
	s.recordAPI(r, tok, AuditAPIUpdateUsers, now, map[string]any{"project_id": p.ID, "users": changedOrEmpty(changed), "access_levels": levels})
	writeJSON(w, http.StatusOK, map[string]any{"status": "COMPLETED", "data": res})
}

// handleRemoveProjectUsers serves DELETE /api/v1/vault/projects/{id}/users.
func (s *Server) handleRemoveProjectUsers(w http.ResponseWriter, r *http.Request, tok *Token) {
	var body struct {
		Emails []string `json:"emails"`
	}
	if !readSharingBody(w, r, &body) {
		return
	}
	if len(body.Emails) == 0 {
		writeError(w, http.StatusBadRequest, "Missing emails")
		return
	}
	now := s.lock()
	defer s.mu.Unlock()
	p := s.sharingProject(w, r)
	if p == nil {
		return
	}
	res := struct {
		ProjectID string       `json:"project_id"`
		Removed   []string     `json:"removed"`
		Failed    []failedJSON `json:"failed"`
	}{ProjectID: p.ID, Removed: []string{}, Failed: []failedJSON{}}
	seen := map[string]bool{}
	for _, e := range body.Emails {
		usr, why := s.st.whoFails(p, tok, e, seen)
		if why == "" && !slices.ContainsFunc(p.UserShares, func(sh share) bool { return sh.User == usr }) {
			why = ReasonNotDirect
		}
		if why != "" {
			res.Failed = append(res.Failed, failedJSON{e, why})
			continue
		}
		p.setShare(usr, "", now)
		res.Removed = append(res.Removed, usr.Email)
	}
	s.recordAPI(r, tok, AuditAPIRemoveUsers, now, map[string]any{"project_id": p.ID, "users": changedOrEmpty(res.Removed)})
	writeJSON(w, http.StatusOK, map[string]any{"status": "COMPLETED", "data": res})
}

func changedOrEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
