package access

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"

	"github.com/vaultdeck/vaultdeck/store"
)

// UnknownPersonError says a snapshot names nobody with the address asked
// for. A snapshot lists people only through their grants, so this is
// either a typo or someone who reaches nothing: saying "reaches no
// project" (and exiting 0) would read as an answer for a typo. Close are
// the snapshot's addresses nearest to it (CloseMatches).
type UnknownPersonError struct {
	Email    string
	Snapshot store.AccessSnapshot
	Close    []string
}

func (e *UnknownPersonError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is not in the access snapshot of %s UTC (snapshot %d): no project lists them",
		e.Email, e.Snapshot.FinishedAt.UTC().Format("2006-01-02 15:04"), e.Snapshot.ID)
	if len(e.Close) > 0 {
		fmt.Fprintf(&b, "; did you mean %s?", strings.Join(e.Close, ", "))
	} else {
		b.WriteString(" (check the address, or run `vaultdeck access crawl` if they were granted access since)")
	}
	return b.String()
}

// Lookup returns the grants of email (ignoring case) in snapshot id (0:
// the last finished one), in the store's order (by project name). When the
// snapshot names nobody with that address, the error is an
// *UnknownPersonError offering close matches. The snapshot is returned
// with either, for its date.
func Lookup(s Snapshots, profile string, id int64, email string) (store.AccessSnapshot, []store.AccessGrant, error) {
	sn, err := Pick(s, profile, id)
	if err != nil {
		return sn, nil, err
	}
	grants, err := s.AccessGrants(sn.ID, store.AccessGrantFilter{Email: email})
	if err != nil {
		return sn, nil, err
	}
	if len(grants) > 0 {
		return sn, grants, nil
	}
	all, err := s.AccessGrants(sn.ID, store.AccessGrantFilter{})
	if err != nil {
		return sn, nil, err
	}
	known := make([]string, 0, len(all)/4)
	for _, p := range People(all) {
		known = append(known, p.Email)
	}
	return sn, nil, &UnknownPersonError{Email: email, Snapshot: sn, Close: CloseMatches(email, known)}
}

// SortManageFirst orders grants MANAGE first, then by project name and id.
func SortManageFirst(gs []store.AccessGrant) {
	rank := func(g store.AccessGrant) int {
		if strings.EqualFold(g.AccessLevel, LevelManage) {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(gs, func(a, b store.AccessGrant) int {
		return cmp.Or(rank(a)-rank(b), strings.Compare(a.ProjectName, b.ProjectName), strings.Compare(a.ProjectID, b.ProjectID))
	})
}

// MaxClose is how many close matches an unknown address is offered.
const MaxClose = 3

// CloseMatches returns up to MaxClose addresses of known nearest to
// email, nearest first. Local part and domain are compared apart (edit
// distance, ignoring case), so a typo in either is found and two people
// of one domain are not "close" only by sharing it: a candidate's
// distance is the sum of both parts' and must be at most a quarter of the
// address's length (at least 1, at most 3); one with the same local part
// at another domain counts at any domain distance, since a wrong domain
// is the usual slip.
func CloseMatches(email string, known []string) []string {
	lp, dom := split(strings.ToLower(strings.TrimSpace(email)))
	limit := min(max(1, (len(lp)+len(dom))/4), 3)
	type cand struct {
		email string
		d     int
	}
	var out []cand
	seen := map[string]bool{}
	for _, k := range known {
		lk := strings.ToLower(k)
		if seen[lk] || lk == lp+"@"+dom {
			continue
		}
		seen[lk] = true
		kl, kd := split(lk)
		dl := levenshtein.ComputeDistance(lp, kl)
		d := dl + levenshtein.ComputeDistance(dom, kd)
		if d <= limit || (dl == 0 && lp != "") {
			out = append(out, cand{k, d})
		}
	}
	slices.SortFunc(out, func(a, b cand) int { return cmp.Or(a.d-b.d, strings.Compare(a.email, b.email)) })
	names := make([]string, 0, min(len(out), MaxClose))
	for _, c := range out[:min(len(out), MaxClose)] {
		names = append(names, c.email)
	}
	return names
}

func split(email string) (local, domain string) {
	if i := strings.LastIndexByte(email, '@'); i >= 0 {
		return email[:i], email[i+1:]
	}
	return email, ""
}
