package person

import (
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// How a person reaches a project (Reach.How): the snapshot's users
// endpoint does not say, the projects listing does (its creator and its
// sharing.user_shares).
const (
	HowOwner     = "owner"     // created it: MANAGE, never changed through the API
	HowDirect    = "direct"    // a direct share: removable with `vaultdeck access`
	HowInherited = "inherited" // a workspace, group or space share: changed in the web app
)

// howOf fills r.Reach.How for every grant from the listing ps: owner,
// direct (with the direct share's level when it is below the grant's, the
// rest inherited) or inherited. A project the listing does not hold, or
// whose share list the interface does not name, is left out (unknown).
func howOf(r *Report, ps []api.Project) {
	byID := make(map[string]*api.Project, len(ps))
	for i := range ps {
		byID[ps[i].ID] = &ps[i]
	}
	r.Reach.How = map[string]string{}
	for _, g := range r.Reach.Grants {
		p := byID[g.ProjectID]
		if p == nil {
			continue
		}
		if strings.EqualFold(strings.TrimSpace(p.CreatorEmail), r.Email) {
			r.Reach.How[g.ProjectID] = HowOwner
			continue
		}
		ds, err := p.Sharing.Direct()
		if err != nil {
			continue
		}
		r.Reach.How[g.ProjectID] = HowInherited
		for _, d := range ds {
			if strings.EqualFold(d.Email, r.Email) {
				r.Reach.How[g.ProjectID] = HowDirect
			}
		}
	}
}

// HowFromCache is how email reaches each project of grants, from the
// projects listing the cache holds (the console's or a person report's);
// ok is false when no whole listing is cached (`vaultdeck person EMAIL`
// reads and caches one).
func HowFromCache(c Cache, email string, grants []store.AccessGrant) (how map[string]string, ok bool, err error) {
	ps, _, _, ok, err := projectListing(c)
	if err != nil || !ok {
		return nil, false, err
	}
	r := &Report{Email: email, Reach: Reach{Grants: grants}}
	howOf(r, ps)
	return r.Reach.How, true, nil
}
