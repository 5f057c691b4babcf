package projects

import (
	"encoding/json"
	"strings"

	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// CachedNames reads project names (by lower-case ID, sanitised) from the
// body this page caches, for views that show a project by name without
// spending the vault budget on a lookup. An unreadable body gives none:
// the caller shows IDs.
func CachedNames(body []byte) map[string]string {
	var s snapshot
	if json.Unmarshal(body, &s) != nil {
		return nil
	}
	out := make(map[string]string, len(s.Projects))
	for _, p := range s.Projects {
		if p.ID != "" && p.Name != "" {
			out[strings.ToLower(p.ID)] = sanitize.Line(p.Name)
		}
	}
	return out
}

// KnownNames merges what this machine knows of project names: those of the
// access snapshots (store.ProjectNames), then the cached listing's, which
// is usually fresher. Names are sanitised; a project neither knows is left
// out (the caller shows its ID).
func KnownNames(snapshots map[string]string, cachedBody []byte) map[string]string {
	out := make(map[string]string, len(snapshots))
	for id, name := range snapshots {
		out[strings.ToLower(id)] = sanitize.Line(name)
	}
	for id, name := range CachedNames(cachedBody) {
		out[id] = name
	}
	return out
}
