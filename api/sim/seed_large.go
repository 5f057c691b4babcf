package sim

import (
	"fmt"
	"time"
)

// The large workspace is big enough for an access review to mean
// something: hundreds of people and projects, access inherited through
// practice groups and workspace-wide shares as well as direct grants, and a
// few sharing changes every simulated day (sharing.go).
const (
	largeUsers    = 220
	largeProjects = 320 // the named projects included
	// largeChurn is the scale's default of Options.SharingChanges.
	largeChurn = 5
)

var practiceGroups = []string{
	"Employment", "Real Estate", "Tax", "Banking & Finance", "IP & Technology",
	"Regulatory", "Private Client", "Restructuring", "Competition",
}

// largeGroups adds the practice groups, each with about one person in ten.
func (sd *seeder) largeGroups() {
	for _, name := range practiceGroups {
		g := &group{Name: name}
		for _, u := range sd.st.users {
			if sd.rng.IntN(10) == 0 {
				g.Members = append(g.Members, u)
			}
		}
		sd.st.groups = append(sd.st.groups, g)
	}
}

// largeProjects adds matter projects until there are largeProjects, each
// with a few files (the big project already holds 100,000), direct grants,
// and for half of them one or two group shares; one in twenty is shared
// with the whole workspace.
func (sd *seeder) largeProjects() {
	st := sd.st
	seen := map[string]bool{}
	for _, p := range st.projects {
		seen[p.Name] = true
	}
	for i := 0; len(st.projects) < largeProjects; i++ {
		name := sd.matterName(sd.pick(companies))
		if seen[name] {
			name = fmt.Sprintf("%s (%d)", name, i)
		}
		seen[name] = true
		created := sd.ago(2 * 365 * 24 * time.Hour)
		p := &project{ID: uuid4(sd.rng), Name: name, CreatedAt: created, Owner: sd.user(),
			QueryCount: sd.rng.IntN(400),
			UpdatedAt:  created.Add(time.Duration(sd.rng.Int64N(int64(sd.base.Sub(created))))).Truncate(time.Microsecond)}
		if sd.rng.IntN(2) == 0 {
			p.ClientMatterID = st.matters[sd.rng.IntN(len(st.matters))].ServiceID
		}
		switch r := sd.rng.IntN(20); {
		case r == 0:
			p.WorkspaceShare = "READ"
		case r < 10:
			for k := 0; k < 1+sd.rng.IntN(2); k++ {
				lvl := "READ"
				if sd.rng.IntN(4) == 0 {
					lvl = "MANAGE"
				}
				p.GroupShares = append(p.GroupShares, groupShare{Group: st.groups[sd.rng.IntN(len(st.groups))], Level: lvl})
			}
		}
		for k := 0; k < 1+sd.rng.IntN(8); k++ {
			u := sd.user()
			if u == p.Owner || hasShare(p, u) {
				continue
			}
			lvl := "READ"
			if sd.rng.IntN(3) == 0 {
				lvl = "MANAGE"
			}
			p.UserShares = append(p.UserShares, share{User: u, Level: lvl, CreatedAt: sd.ago(sd.base.Sub(created))})
		}
		st.addProject(p)
		sd.files(p, sd.rng.IntN(15), false)
	}
}

func hasShare(p *project, u *user) bool {
	for _, sh := range p.UserShares {
		if sh.User == u {
			return true
		}
	}
	return false
}
