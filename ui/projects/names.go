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
