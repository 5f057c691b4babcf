package api

import (
	"context"
	"strings"
)

// permCache is whoami's permission list for one token.
type permCache struct {
	token string // hash
	perms []string
}

// refineForbidden narrows a 403's permission down to what whoami says the
// token lacks, when the service's answer does not say. whoami is asked once
// per token (it costs no budget); when it fails, the endpoint's full list
// stays.
func (c *Client) refineForbidden(ctx context.Context, ep endpoint, e *Error) {
	need := needs[ep.perm]
	if e.Kind != KindForbidden || len(need) == 0 || ep == epWhoAmI {
		return
	}
	perms, ok := c.permissions(ctx)
	if !ok {
		return
	}
	var missing []string
	for _, group := range need {
		if !anyFold(group, perms) {
			missing = append(missing, strings.Join(group, " or "))
		}
	}
	if len(missing) == 0 {
		e.HasPermissions = true
		return
	}
	e.Permission = strings.Join(missing, " and ")
}

func (c *Client) permissions(ctx context.Context) ([]string, bool) {
	h := ""
	if p := c.lastToken.Load(); p != nil {
		h = *p
	}
	if pc := c.perms.Load(); pc != nil && pc.token == h {
		return pc.perms, true
	}
	w, err := c.WhoAmI(ctx)
	if err != nil || len(w.Permissions) == 0 {
		return nil, false
	}
	c.perms.Store(&permCache{token: h, perms: w.Permissions})
	return w.Permissions, true
}

func anyFold(group, perms []string) bool {
	for _, g := range group {
		for _, p := range perms {
			if strings.EqualFold(strings.TrimSpace(p), g) {
				return true
			}
		}
	}
	return false
}

// Requirement is what one endpoint needs of whoami's permissions, as the
// spec's per-endpoint table says: `profiles --check` names what a token
// lacks before a command meets the 403.
type Requirement struct {
	// Endpoint is "METHOD /path" as the spec writes it.
	Endpoint string
	// Permission is the spec's wording.
	Permission string
	groups     [][]string
}

// Lacks returns each group of the requirement that perms does not satisfy,
// worded as "A" or "A or B" (whoami's names, compared without case).
func (r Requirement) Lacks(perms []string) []string {
	var out []string
	for _, g := range r.groups {
		if !anyFold(g, perms) {
			out = append(out, strings.Join(g, " or "))
		}
	}
	return out
}

// Requirements lists every endpoint the client calls that needs a
// permission, in the endpoint table's order (whoami needs none).
func Requirements() []Requirement {
	eps := []endpoint{epProjects, epProjectFiles, epProjectUsers, epUpdateUsers, epRemoveUsers, epRecycleBin, epGetFiles,
		epUpload, epDeleteFile, epGetMetadata, epDeleteProject, epAuditEarliest, epAuditList, epAuditLatest, epAuditSearch, epDeleteMatters, epUpsertMatters, epListMatters}
	out := make([]Requirement, 0, len(eps))
	for _, ep := range eps {
		out = append(out, Requirement{Endpoint: ep.String(), Permission: ep.perm, groups: needs[ep.perm]})
	}
	return out
}
