// This file is how a Store refuses to write into a damaged file. SQLite
// notices damage only on the pages a statement reads: random bytes over an
// index page leave every write that does not pass through it succeeding, so
// `audit sync`, `access crawl` and `audit follow --out` went on adding to a
// file the journal's reads had already refused (issue 40, case 4). Two
// things close that: a job that writes much proves the file whole first
// (Check, as a resume and a restore already did), and once this Store has
// seen the damage, by a check or by SQLite's own report of a malformed page
// at any statement, every later write of it is refused with the same error.

package store

import (
	"errors"
	"fmt"
)

// DamagedError is ErrDamaged with the file and what was found.
type DamagedError struct {
	Path   string
	Detail string // SQLite's words: the check's first problems, or the statement's error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%v (%s: %s); nothing was read from it as if it were whole and nothing more is written into it: "+
		"`vaultdeck store check` says what is readable, and `vaultdeck store recover` copies that into a fresh file "+
		"and moves the damaged one aside, kept for the record (or move the file aside yourself and restore it from a backup)",
		ErrDamaged, e.Path, e.Detail)
}

func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

// malformed reports SQLite's result codes for a damaged file: SQLITE_CORRUPT
// (and its extended codes) and SQLITE_NOTADB.
func malformed(err error) bool {
	var c interface{ Code() int }
	if !errors.As(err, &c) {
		return false
	}
	switch c.Code() & 0xff {
	case 11, 26:
		return true
	}
	return false
}

// refused is the damage this database was found with, if any: a write is
// not made once it was.
func (g *gatedDB) refused() error {
	if d := g.damage.Load(); d != nil {
		return d
	}
	return nil
}

// noticed is err, or, when err says the file is damaged, the sticky
// DamagedError that every later write returns.
func (g *gatedDB) noticed(err error) error {
	if err == nil || !malformed(err) {
		return err
	}
	return g.markDamaged(err.Error())
}

func (g *gatedDB) markDamaged(detail string) *DamagedError {
	g.damage.CompareAndSwap(nil, &DamagedError{Path: g.busy.path, Detail: detail})
	return g.damage.Load()
}
