package change

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// Where a plan's wants come from. Each reads the listing (direct shares)
// first; Read then reads the users of every project they touch.

// RemoveWants is every direct share of email removed, and, so that the
// plan shows how else they reach a project, a row for each project they
// own or (reach lists them from a snapshot) reach otherwise.
func RemoveWants(projects map[string]*Project, order []string, email string, reach []string) []Want {
	k := key(email)
	var out []Want
	add := func(id string) {
		if !slices.ContainsFunc(out, func(w Want) bool { return w.ProjectID == id }) {
			out = append(out, Want{ProjectID: id, Email: email})
		}
	}
	for _, id := range order {
		p := projects[id]
		if _, ok := p.Direct[k]; ok || key(p.Owner) == k {
			add(id)
		}
	}
	for _, id := range reach {
		if projects[id] != nil {
			add(id)
		}
	}
	return out
}

// CopyWants is what from reaches directly, given to to at the same levels.
func CopyWants(projects map[string]*Project, order []string, from, to string) []Want {
	var out []Want
	for _, id := range order {
		if d, ok := projects[id].Direct[key(from)]; ok {
			out = append(out, Want{ProjectID: id, Email: to, Level: d.AccessLevel})
		}
	}
	return out
}

// ManagerWants names manager as MANAGE on each refused project of p: the
// new manager an offboarding needs first.
func ManagerWants(p *Plan, manager string) []Want {
	var out []Want
	for _, s := range p.Projects {
		if slices.Contains(p.Refused, s.Name+" ("+s.ID+")") {
			out = append(out, Want{ProjectID: s.ID, Email: manager, Level: api.AccessManage})
		}
	}
	return out
}

// RevertWants puts back direct access as snapshot grants had it, for the
// projects whose access changed since (the caller passes the projects
// whose project_updated_at moved, their users read): a person who lost
// access gets it back directly at the old level, a changed level is set
// back, access gained since is removed.
func RevertWants(projects map[string]*Project, moved []string, grants []store.AccessGrant) []Want {
	then := map[string]map[string]string{}
	for _, g := range grants {
		if then[g.ProjectID] == nil {
			then[g.ProjectID] = map[string]string{}
		}
		then[g.ProjectID][key(g.Email)] = g.AccessLevel
	}
	var out []Want
	for _, id := range moved {
		p := projects[id]
		if p == nil || p.Users == nil {
			continue
		}
		was := then[id]
		emails := map[string]string{}
		for k, u := range p.Users {
			emails[k] = u.Email
		}
		for _, g := range grants {
			if g.ProjectID == id {
				emails[key(g.Email)] = g.Email
			}
		}
		ks := make([]string, 0, len(emails))
		for k := range emails {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			old, had := was[k]
			now := p.Users[k].AccessLevel
			if had && old == now || !had && now == "" {
				continue
			}
			out = append(out, Want{ProjectID: id, Email: emails[k], Level: old})
		}
	}
	return out
}

// Columns a CSV of wants may name (any case, "_" or " " alike): the
// plan's own --csv, `access diff --csv` (TO is the newer level) and a
// hand-written file read back.
var (
	projectCols = []string{"project id"}
	emailCols   = []string{"email", "e-mail", "user email"}
	levelCols   = []string{"level", "to", "access level", "access"}
)

// CSVWants reads the rows of a --set file: a header naming a project ID,
// an e-mail and a level column (MANAGE, READ, or empty or NONE for no
// direct access). A byte-order mark is skipped; a row without a project
// or an e-mail, or with another level, is an error naming its line.
func CSVWants(data []byte) ([]Want, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("the file has no header line: %w", err)
	}
	// the first name of the list that a header has wins: a plan's own
	// CSV has both TO (the level after) and ACCESS (the level now)
	col := func(names []string) int {
		for _, n := range names {
			for i, h := range header {
				if strings.ToLower(strings.TrimSpace(strings.ReplaceAll(h, "_", " "))) == n {
					return i
				}
			}
		}
		return -1
	}
	pc, ec, lc := col(projectCols), col(emailCols), col(levelCols)
	if pc < 0 || ec < 0 || lc < 0 {
		return nil, fmt.Errorf("the header %q needs a project ID, an e-mail and a level column (PROJECT ID, EMAIL, LEVEL)", strings.Join(header, ","))
	}
	var out []Want
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		get := func(i int) string {
			if i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		w := Want{ProjectID: get(pc), Email: get(ec), Level: strings.ToUpper(get(lc))}
		if w.Level == "NONE" || w.Level == "-" {
			w.Level = ""
		}
		switch {
		case w.ProjectID == "" || w.Email == "":
			return nil, fmt.Errorf("line %d: a row needs a project ID and an e-mail", line)
		case !strings.Contains(w.Email, "@"):
			return nil, fmt.Errorf("line %d: %q is not an e-mail address", line, w.Email)
		case w.Level != "" && !api.KnownLevel(w.Level):
			return nil, fmt.Errorf("line %d: the level %q is not MANAGE, READ or NONE", line, w.Level)
		}
		out = append(out, w)
	}
}

// Read reads the users of each project the wants touch, in order, told
// to progress after each (done of all).
func Read(ctx context.Context, c API, projects map[string]*Project, wants []Want, progress func(done, all int)) error {
	var ids []string
	for _, w := range wants {
		if p := projects[w.ProjectID]; p != nil && p.Users == nil && !slices.Contains(ids, w.ProjectID) {
			ids = append(ids, w.ProjectID)
		}
	}
	for i, id := range ids {
		if err := ReadUsers(ctx, c, projects[id]); err != nil {
			return err
		}
		if progress != nil {
			progress(i+1, len(ids))
		}
	}
	return nil
}
