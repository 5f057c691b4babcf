package api

import "strings"

// IsUUID reports whether s is a UUID in its canonical 8-4-4-4-12 form, the
// shape of every project, file and client-matter ID of the service. The one
// check: the command line, the console's routes and its inputs use it, so a
// malformed ID never costs a request.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
	}
	return true
}

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
