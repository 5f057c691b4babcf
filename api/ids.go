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
