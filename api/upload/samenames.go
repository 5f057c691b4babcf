package upload

// The service keeps one live file per name in a project, whatever folder
// the file_paths value names: two files of one name under different
// folders of one upload collide with each other. What becomes of them is
// the duplicate mode's doing, and is said before anything is sent.

import (
	"fmt"
	"path"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
)

// SameName is a name that more than one file of a plan carries, with those
// files in the order they would be sent.
type SameName struct {
	Name  string
	Files []File
}

// SameNames lists the names of a plan that several files carry, in the
// order of their first file.
func (p Plan) SameNames() []SameName {
	at := map[string]int{}
	var groups []SameName
	for _, f := range p.Files {
		i, ok := at[f.Name]
		if !ok {
			at[f.Name] = len(groups)
			groups = append(groups, SameName{Name: f.Name, Files: []File{f}})
			continue
		}
		groups[i].Files = append(groups[i].Files, f)
	}
	out := groups[:0]
	for _, g := range groups {
		if len(g.Files) > 1 {
			out = append(out, g)
		}
	}
	return out
}

// label names a file of the group: its file_paths value, or its local
// path when two of the group have the same one (two files named on the
// command line from different folders are both just "x.pdf").
func (s SameName) label(f File) string {
	n := 0
	for _, o := range s.Files {
		if o.Path == f.Path {
			n++
		}
	}
	if n > 1 {
		return fmt.Sprintf("%q", f.Local)
	}
	return fmt.Sprintf("%q", f.Path)
}

// Paths are the group's files, quoted, joined for a sentence.
func (s SameName) Paths() string {
	q := make([]string, len(s.Files))
	for i, f := range s.Files {
		q[i] = s.label(f)
	}
	return strings.Join(q, ", ")
}

// Effect says what mode does with the group's files, sent in one run in
// their order: the service sees them one after the other.
func (s SameName) Effect(mode api.DuplicateMode) string {
	first, last := s.Files[0], s.Files[len(s.Files)-1]
	rest := func(skip File) string {
		var q []string
		for _, f := range s.Files {
			if f.Local != skip.Local {
				q = append(q, s.label(f))
			}
		}
		return strings.Join(q, ", ")
	}
	switch mode {
	case api.DuplicateReplace:
		return fmt.Sprintf("the project keeps %s as %s; %s is uploaded and then superseded by it (replaced, deleted_at set)", s.label(last), s.Name, rest(last))
	case api.DuplicateKeep:
		ext := path.Ext(s.Name)
		return fmt.Sprintf("all are kept: %s as %s, %s renamed with a number (%s)", s.label(first), s.Name, rest(first), strings.TrimSuffix(s.Name, ext)+" (1)"+ext)
	default:
		return fmt.Sprintf("only %s is uploaded as %s; %s is skipped (and all of them if the project already holds a %s)", s.label(first), s.Name, rest(first), s.Name)
	}
}
