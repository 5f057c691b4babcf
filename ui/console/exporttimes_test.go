package console

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// looksLikeTime is a cell that holds a date or a time of day: an absolute
// time a reader outside the console reads ("2026-11-26", "2026-11-26 14:05").
var looksLikeTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}.*)?$`)

// namesUTC is a header saying its column is a time in UTC ("purge at
// (UTC)"), the word whole: OUTCOMES is no time.
var namesUTC = regexp.MustCompile(`\bUTC\b`)

// Issue 29.1: an export is read outside the console, next week, by a
// program as often as by a person: every absolute time in every CSV the
// console writes (e on each view that offers it, :matters' receipts, a
// receipt and a preview too) is RFC 3339 in UTC with its seconds
// ("2026-11-26T14:05:09Z"). The bin's "deleted at (UTC)" was
// written "2026-11-26 14:05" beside its RFC 3339 "purge at (UTC)".
func TestEveryExportWritesRFC3339UTC(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	e := newKeyEnv(t)
	fx := e.matters(t)
	pid := func(e *keyEnv) string { return e.project(t).ID }
	states := []keyState{
		{name: "projects", route: "projects", wait: "12 of 12 loaded"},
		{name: "project users", route: "project", arg: pid, wait: "tab files", also: "1/"},
		{name: "project files", route: "project", arg: pid, wait: "tab files", also: "1/", steps: [][2]string{{"tab", "enter file status"}}},
		{name: "bin", route: "bin", wait: "30 entries"},
		{name: "bin purging soon", route: "bin", wait: "30 entries", steps: [][2]string{{"p", "purging"}}},
		{name: "bin by deleter", route: "bin", wait: "30 entries", steps: [][2]string{{"b", "their entries"}}},
		{name: "a deleter's entries", route: "bin", wait: "30 entries", steps: [][2]string{{"b", "their entries"}, {"enter", "esc all deleters"}}},
		{name: "audit", route: "audit", wait: "own reads", also: "1/"},
		{name: "file status", route: "project", arg: pid, wait: "tab files", also: "1/", steps: [][2]string{{"tab", "enter file status"}, {"s", "next poll in"}}},
		{name: "access people", route: "access", wait: "projects", also: "1/"},
		{name: "access person", route: "access", wait: "projects", also: "1/", steps: [][2]string{{"enter", "open project"}}},
		{name: "access changes", route: "access", wait: "projects", also: "1/", steps: [][2]string{{"tab", "people"}}},
		{name: "matters", route: "matters", wait: "february-closures.csv"},
		{name: "matters preview", route: "matters", arg: func(*keyEnv) string { return fx.file }, wait: "Preview of march-closures.csv"},
		{name: "matters receipt", route: "matters", wait: "february-closures.csv", steps: [][2]string{{"enter", fmt.Sprintf("Receipt %d ", fx.receipt)}}},
	}
	checked := 0
	for _, s := range states {
		r := e.open(t, e.opts, s)
		r.send(keyMsg("e"))
		m := r.m
		if !r.until(func() bool { return strings.HasPrefix(m.Status(), "wrote ") }, 10*time.Second) {
			t.Errorf("%s: e wrote no CSV (status %q)", s.name, m.Status())
			continue
		}
		path := filepath.Join(dir, filepath.Base(strings.Fields(m.Status())[len(strings.Fields(m.Status()))-1]))
		f, err := os.Open(path)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil || len(recs) == 0 {
			t.Fatalf("%s: %s does not read back as CSV: %v", s.name, path, err)
		}
		// a column holding a time holds nothing else: one not known is
		// an empty cell, never a word ("unfinished", "-")
		head, said, times := recs[0], map[int]bool{}, map[int]bool{}
		for _, rec := range recs[1:] {
			for i, cell := range rec {
				times[i] = times[i] || looksLikeTime.MatchString(cell) || namesUTC.MatchString(head[i])
			}
		}
		for _, rec := range recs[1:] {
			for i, cell := range rec {
				if cell == "" || said[i] || !times[i] {
					continue
				}
				checked++
				if at, err := time.Parse(time.RFC3339, cell); err != nil || !strings.HasSuffix(cell, "Z") || at.Format(time.RFC3339) != cell {
					t.Errorf("%s: column %q holds %q, not an RFC 3339 UTC time with its seconds", s.name, head[i], cell)
					said[i] = true
				}
			}
		}
		os.Remove(path)
	}
	if checked == 0 {
		t.Fatal("no time cell was checked: the walk exports nothing")
	}
}
