package sim

import (
	"slices"
	"time"
)

// LeaverProjectName is the project whose owner the seed makes its
// planted leaver (Options.Leaver): one person with every part of
// `vaultdeck person` to show.
const LeaverProjectName = "Ironbridge Capital — Refinancing"

// The leaver's direct shares (leaverShares): what an offboarding removes
// through DELETE. LeaverWorkspaceShared is also shared with the whole
// workspace, so the leaver still reads it after the removal (inherited);
// LeaverDirectManage is a direct MANAGE.
const (
	LeaverWorkspaceShared = "Juniper Health — Data Protection Audit"
	LeaverDirectManage    = "Bellhaven Shipping — Share Purchase"
)

// leaverDirect names every direct share the seed gives the leaver, with
// its level.
var leaverDirect = []struct{ project, level string }{
	{LeaverWorkspaceShared, "READ"},
	{LeaverDirectManage, "MANAGE"},
	{"Eastgate Pharma — Regulatory Investigation", "READ"},
	{"Meridian Telecom v. Brightline Ltd — Supply Agreement Dispute", "MANAGE"},
	{"Acme Corp v. Halvorsen — Patent Litigation", "READ"},
}

// LeaverIP is the address of the leaver's planted login: a documentation
// address (TEST-NET-2) the seed gives nobody else, so it is new.
const LeaverIP = "198.51.100.23"

// leaverLogin returns the leaver's planted login (3 hours before the seed
// time, from LeaverIP) after making the owner of LeaverProjectName a
// person with every part of a person report: the only MANAGE on that
// project (its user shares become READ), at least one client matter, and
// two deletions in the bin, one purging within a day and one within a
// week. It draws nothing from the seed's random stream, so every other
// seeded value is as without it; nil when the project is not seeded.
func (sd *seeder) leaverLogin() []*auditEntry {
	st := sd.st
	var p *project
	for _, q := range st.projects {
		if q.Name == LeaverProjectName {
			p = q
			break
		}
	}
	if p == nil {
		return nil
	}
	who := p.Owner.Email
	st.leaver = who
	for i := range p.UserShares {
		p.UserShares[i].Level = "READ"
	}
	sd.leaverShares(p.Owner)
	hasMatter := false
	for _, m := range st.matters {
		hasMatter = hasMatter || (m.CreatorEmail == who && m.DeletedAt.IsZero())
	}
	if !hasMatter {
		for _, m := range st.matters {
			if m.DeletedAt.IsZero() {
				m.CreatorEmail = who
				break
			}
		}
	}
	var day, week bool
	for _, e := range st.recycle {
		left := e.PurgeAt.Sub(sd.base)
		switch {
		case !day && left > 0 && left <= 24*time.Hour:
			e.DeletedBy, day = who, true
		case !week && left > 24*time.Hour && left <= 7*24*time.Hour:
			e.DeletedBy, week = who, true
		}
	}
	return []*auditEntry{{Timestamp: sd.base.Add(-3 * time.Hour), Type: AuditLogin, User: who, IP: LeaverIP,
		UserAgent: userAgents[0], Site: defaultAuditSite}}
}

// leaverShares gives the leaver the direct shares of leaverDirect (a
// level changed where the seed already shared the project with them), at
// fixed times, drawing nothing from the seed's stream. A project the
// leaver owns is skipped: the owner has no share of their own.
func (sd *seeder) leaverShares(who *user) {
	for i, d := range leaverDirect {
		for _, p := range sd.st.projects {
			if p.Name != d.project || p.Owner == who {
				continue
			}
			at := sd.base.Add(-time.Duration(40+10*i) * 24 * time.Hour)
			if j := slices.IndexFunc(p.UserShares, func(sh share) bool { return sh.User == who }); j >= 0 {
				p.UserShares[j].Level = d.level
			} else {
				p.UserShares = append(p.UserShares, share{User: who, Level: d.level, CreatedAt: at})
			}
		}
	}
}
