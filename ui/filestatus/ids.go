package filestatus

import (
	"strconv"

	"github.com/vaultdeck/vaultdeck/api"
	"strings"
	"time"
)

// ParseIDs is api.ParseIDs: one reader of pasted IDs for the console and
// the command line.
func ParseIDs(s string) []string { return api.ParseIDs(s) }

// parseArg reads the view's argument: IDs as ParseIDs reads them, each
// optionally followed by @EPOCH_SECONDS, its upload time as the project
// listing gave it (the Files tab hands them over so).
func parseArg(s string) ([]string, map[string]time.Time) {
	var ids []string
	times := map[string]time.Time{}
	seen := map[string]bool{}
	for _, tok := range ParseIDs(s) {
		id := tok
		if i := strings.LastIndexByte(tok, '@'); i > 0 {
			if secs, err := strconv.ParseInt(tok[i+1:], 10, 64); err == nil && secs > 0 {
				id = tok[:i]
				times[id] = time.Unix(secs, 0)
			}
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, times
}
