package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// TestRepeatingPagesEnd (issue 26.4): every paged listing, page-numbered
// or cursor-paged, ends with an error naming its endpoint when a page
// repeats an earlier one, a cursor comes again or pages go on past the
// listing's own total, after handing out each record once.
func TestRepeatingPagesEnd(t *testing.T) {
	type read func(c *api.Client, each func(id string)) error
	reads := map[string]read{
		"Projects Each": func(c *api.Client, each func(string)) error {
			_, err := c.Projects(api.ProjectQuery{}).Each(context.Background(), func(p *api.Project, _ api.RawItem) error { each(p.ID); return nil }, nil)
			return err
		},
		"Projects Raw": func(c *api.Client, each func(string)) error {
			_, err := c.Projects(api.ProjectQuery{}).Raw(context.Background(), func(it api.RawItem) error {
				var p api.Project
				if err := json.Unmarshal(it.Bytes, &p); err != nil {
					return err
				}
				each(p.ID)
				return nil
			}, nil)
			return err
		},
		"ProjectFiles Each": func(c *api.Client, each func(string)) error {
			_, err := c.ProjectFiles(faultserver.ProjectID, api.FileQuery{}).Each(context.Background(), func(f *api.ProjectFile, _ api.RawItem) error { each(f.ID); return nil }, nil)
			return err
		},
		"ProjectFiles Raw": func(c *api.Client, each func(string)) error {
			_, err := c.ProjectFiles(faultserver.ProjectID, api.FileQuery{}).Raw(context.Background(), func(it api.RawItem) error {
				var f api.ProjectFile
				if err := json.Unmarshal(it.Bytes, &f); err != nil {
					return err
				}
				each(f.ID)
				return nil
			}, nil)
			return err
		},
	}
	want := map[faultserver.Fault]map[bool]string{
		faultserver.RepeatPage:   {true: "holds only projects already listed", false: "holds only files already listed"},
		faultserver.RepeatCursor: {true: "already listed make up the listing's own total of 100", false: "next_cursor it had already given"},
	}
	for _, fault := range []faultserver.Fault{faultserver.RepeatPage, faultserver.RepeatCursor} {
		for name, rd := range reads {
			t.Run(string(fault)+"/"+name, func(t *testing.T) {
				s := faultserver.Start(fault)
				defer s.Close()
				seen, twice := map[string]bool{}, 0
				err := rd(hostileClient(t, s, api.Timeouts{}), func(id string) {
					if seen[id] {
						twice++
					}
					seen[id] = true
				})
				projects := strings.Contains(name, "Project") && !strings.Contains(name, "File")
				ep := "GET /api/v1/vault/projects/{project_id}/files"
				if projects {
					ep = "GET /api/v1/vault/workspace/projects"
				}
				var ae *api.Error
				if !errors.As(err, &ae) || ae.Kind != api.KindMalformed || !strings.Contains(err.Error(), ep) || !strings.Contains(err.Error(), want[fault][projects]) {
					t.Fatalf("want %q from %s, got %v", want[fault][projects], ep, err)
				}
				if twice > 0 || len(seen) == 0 || s.Requests() > 3 {
					t.Errorf("%d records, %d of them twice, %d requests", len(seen), twice, s.Requests())
				}
			})
		}
	}
}
