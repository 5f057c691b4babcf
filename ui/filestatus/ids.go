package filestatus

import "strings"

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
