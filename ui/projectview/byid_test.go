package projectview

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

const acmeID = "123e4567-e89b-12d3-a456-426614174000"

func listing(ps ...api.Project) func(context.Context, api.ProjectQuery) (*api.ProjectPage, error) {
	return func(_ context.Context, q api.ProjectQuery) (*api.ProjectPage, error) {
		pg := &api.ProjectPage{}
		// page 1 holds another project: the one asked for is on page 2
		// (an empty page ends a listing, as it does everywhere)
		pg.Pagination.Page, pg.Pagination.TotalPages, pg.Pagination.Total = api.Int(max(q.Page, 1)), 2, api.Int(len(ps)+1)
		pg.Projects = []api.Project{{ID: "00000000-0000-4000-8000-000000000099", Name: "Another"}}
		if q.Page == 2 {
			pg.Projects = ps
		}
		return pg, nil
	}
}

// A project opened by ID (":project UUID") learns its name and size before
// anything else, so the title and the confirmation are the name.
func TestOpenedByIDResolvesName(t *testing.T) {
	f := fake()
	f.ProjectsFn = listing(api.Project{ID: acmeID, Name: "Acme Merger", FilesCount: 2})
	p := New(pagetest.Env(t, f, false), acmeID)
	p.SetSize(100, 20)
	p, _ = pagetest.Drive(p, p.Init())
	if p.Title() != "Acme Merger" || !strings.Contains(p.View(), "2 files") {
		t.Fatalf("title %q:\n%s", p.Title(), p.View())
	}
	p, _ = pagetest.Press(p, "D")
	if v := p.View(); !strings.Contains(v, "Acme Merger") || strings.Contains(v, acmeID) {
		t.Errorf("confirmation asks for the ID, not the name:\n%s", v)
	}
}

// A page that cannot resolve its ID says so and offers nothing to delete.
func TestUnresolvedIDOffersNoDeletion(t *testing.T) {
	f := fake()
	f.ProjectsFn = listing()
	p := New(pagetest.Env(t, f, false), acmeID)
	p.SetSize(100, 20)
	p, _ = pagetest.Drive(p, p.Init())
	if v := p.View(); !strings.Contains(v, "no project with ID "+acmeID) {
		t.Fatalf("unresolved page:\n%s", v)
	}
	p, _ = pagetest.Press(p, "D")
	if strings.Contains(p.View(), "Delete project") || f.Calls("ProjectUsers") != 0 {
		t.Errorf("an unresolved project offered deletion or loaded users:\n%s", p.View())
	}
}

func TestCheckID(t *testing.T) {
	if CheckID("") == nil || CheckID("nope") == nil || CheckID(acmeID) != nil {
		t.Error("CheckID")
	}
}

// An ID pasted in upper case (CheckID accepts a UUID in either case) names
// the same project: walking every page of the listing to answer "no such
// project" would spend the organisation's budget for nothing.
func TestOpenedByUpperCaseID(t *testing.T) {
	f := fake()
	f.ProjectsFn = listing(api.Project{ID: acmeID, Name: "Acme Merger", FilesCount: 2})
	p := New(pagetest.Env(t, f, false), strings.ToUpper(acmeID))
	p.SetSize(100, 20)
	p, _ = pagetest.Drive(p, p.Init())
	if p.Title() != "Acme Merger" {
		t.Fatalf("upper-case ID not resolved: title %q:\n%s", p.Title(), p.View())
	}
}
