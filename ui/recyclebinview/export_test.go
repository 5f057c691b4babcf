package recyclebinview

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

type exporter interface{ ExportTable() widgets.TableExport }

// readExport writes the page's export and reads it back with encoding/csv,
// as a partner's spreadsheet or script would.
func readExport(t *testing.T, p page.Page) (header []string, rows []map[string]string) {
	t.Helper()
	var b bytes.Buffer
	if err := p.(exporter).ExportTable().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("the export does not read back as CSV: %v\n%s", err, b.String())
	}
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return recs[0], rows
}

// TestExportAfterSoonAndGroups: the bin's e after p and b writes, for each
// entry behind the groups, its project ID and its purge time in UTC beside
// the countdown (not one line per person with a relative "next purge").
func TestExportAfterSoonAndGroups(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return reviewBin(), nil }}
	p := open(t, fake)
	p, _ = pagetest.Press(p, "p")
	p, _ = pagetest.Press(p, "b")
	header, rows := readExport(t, p)
	for _, h := range []string{"project", "project id", "deleted by", "deleted at (UTC)", "purge in", "purge at (UTC)", "knowledge base"} {
		if !slices.Contains(header, h) {
			t.Errorf("no %q column in %q", h, header)
		}
	}
	want := map[string]string{} // within 7 days, overdue included: b, c, d
	for _, e := range reviewBin().Items {
		if e.RecycleBinPurgedScheduledAt.Sub(pagetest.Now) < 7*24*time.Hour {
			want[e.VaultProject.ID] = e.RecycleBinPurgedScheduledAt.UTC().Format(time.RFC3339)
		}
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want the %d entries behind the groups: %v", len(rows), len(want), rows)
	}
	var people []string
	for _, r := range rows {
		if at, ok := want[r["project id"]]; !ok || r["purge at (UTC)"] != at {
			t.Errorf("row %v: want project id of an entry and its purge time %q", r, at)
		}
		if len(people) == 0 || people[len(people)-1] != r["deleted by"] {
			people = append(people, r["deleted by"])
		}
	}
	if !slices.Equal(people, []string{"bob@firm.test", "ann@firm.test"}) {
		t.Errorf("rows by person %v, want each group's entries together in the groups' order", people)
	}
}

// TestEscStepsBackOneLevel: esc from a person's entries goes back to the
// people, the cursor on that person; esc again to the entries.
func TestEscStepsBackOneLevel(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return reviewBin(), nil }}
	p := open(t, fake)
	p, _ = pagetest.Press(p, "b")
	p, _ = pagetest.Press(p, "j") // ann, the second person
	p, _ = pagetest.Press(p, "enter")
	if got := p.(page.Selector).SelectedID(); got != "p-c" && got != "p-a" {
		t.Fatalf("ann's entries: selected %q", got)
	}
	p, _ = pagetest.Press(p, "esc")
	if got := p.(page.Selector).SelectedID(); got != "ann@firm.test" {
		t.Errorf("after esc selected %q, want the people with the cursor on ann@firm.test", got)
	}
	p, _ = pagetest.Press(p, "esc")
	if got := p.(page.Selector).SelectedID(); got == "" || got == "ann@firm.test" {
		t.Errorf("second esc: selected %q, want the entries", got)
	}
	if p.(page.EscHandler).WantsEsc() {
		t.Error("esc still wanted at the top level")
	}
}
