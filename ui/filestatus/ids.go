package filestatus

import (
	"strconv"
	"strings"
	"time"
)

// ParseIDs reads file IDs the way people paste them: separated by commas,
// semicolons, spaces, tabs or line breaks (CRLF from Windows clipboards), with
// a byte-order mark from a saved CSV, optional quotes around each ID and
// duplicates. Order of first appearance is kept so the table matches what was
// pasted; duplicates are dropped because polling one ID twice wastes budget.
func ParseIDs(s string) []string {
	s = strings.ReplaceAll(s, "\uFEFF", "")
	fields := strings.FieldsFunc(s, func(r rune) bool {
		switch r {
		case ',', ';', ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
		return false
	})
	seen := make(map[string]struct{}, len(fields))
	ids := make([]string, 0, len(fields))
	for _, f := range fields {
		f = strings.Trim(f, `"'`)
		if f == "" {
			continue
		}
		if _, dup := seen[f]; dup {
			continue
		}
		seen[f] = struct{}{}
		ids = append(ids, f)
	}
	return ids
}

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
