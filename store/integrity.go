package store

import (
	"errors"
	"fmt"
	"strings"
)

// ErrDamaged is returned (wrapped) by Check when the database file is damaged.
// A damaged journal or receipt must never read as "nothing to do": callers
// that are about to trust the store for a write (resume, restore) check first
// and stop with this error instead of acting on what is left readable.
var ErrDamaged = errors.New("the local database is damaged")

// Check runs SQLite's quick_check over the whole file: it reads every page
// and verifies the b-trees and their free lists (but not index contents
// against rows, which integrity_check adds at several times the cost). At
// the sizes this store reaches (a few MB to tens of MB) it takes
// milliseconds, so it is run before every resume and restore rather than
// trusted to a flag. A file that cannot even be opened or read is reported
// the same way: both leave nothing a write could rely on.
func (s *Store) Check() error {
	rows, err := s.db.Query(`PRAGMA quick_check`)
	if err != nil {
		return s.damaged(err.Error())
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return s.damaged(err.Error())
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return s.damaged(err.Error())
	}
	if len(problems) > 0 {
		// quick_check lists up to 100 problems; the first few say enough.
		if len(problems) > 3 {
			problems = append(problems[:3], fmt.Sprintf("and %d more", len(problems)-3))
		}
		return s.damaged(strings.Join(problems, "; "))
	}
	return nil
}

// damaged is the Store's DamagedError (damage.go) for what the check
// found: its sentence names the file, SQLite's words and the remedy, and
// from now on no write of this Store is made.
func (s *Store) damaged(detail string) error {
	return s.db.markDamaged(detail)
}
