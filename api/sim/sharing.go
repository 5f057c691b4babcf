package sim

import (
	"errors"
	"fmt"
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
