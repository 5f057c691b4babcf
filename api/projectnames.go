package api

import (
	"encoding/json"
	"strings"
)

// ProjectListing is the projects page's cached body (the console's
// `projects` cache entry): the loaded pages of the unfiltered listing. Its
// format lives here, beside Project, because views other than the projects
// page read names from it (file status, `status --journal`).
type ProjectListing struct {
	Projects   []Project `json:"projects"`
	Page       int       `json:"page"`
	TotalPages int       `json:"total_pages"`
	Total      int       `json:"total"`
}

// CachedProjectNames reads project names (by lower-case ID) from a cached
// ProjectListing body, for views that show a project by name without
// spending the vault budget on a lookup. An unreadable body gives none:
// the caller shows IDs. Names are the server's strings: printers clean them.
func CachedProjectNames(body []byte) map[string]string {
	var s ProjectListing
	if json.Unmarshal(body, &s) != nil {
		return nil
	}
	out := make(map[string]string, len(s.Projects))
	for _, p := range s.Projects {
		if p.ID != "" && p.Name != "" {
			out[strings.ToLower(p.ID)] = p.Name
		}
	}
	return out
}

// KnownProjectNames merges what this machine knows of project names: those
// of the access snapshots (store.ProjectNames), then the cached listing's,
// which is usually fresher. A project neither knows is left out (the
// caller shows its ID). Names are the server's strings: printers clean them.
func KnownProjectNames(snapshots map[string]string, cachedListing []byte) map[string]string {
	out := make(map[string]string, len(snapshots))
	for id, name := range snapshots {
		out[strings.ToLower(id)] = name
	}
	for id, name := range CachedProjectNames(cachedListing) {
		out[id] = name
	}
	return out
}
