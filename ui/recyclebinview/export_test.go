package recyclebinview

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
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

// TestExportAfterSoonAndGroups: the bin's e writes what is on screen
// (issue 42): after p, the entries within the window as the bin's records
// (the project ID and the purge time in UTC beside the countdown); after b,
// the group rows as shown, a person a row in the groups' order, with the
// next purge's time in UTC beside its countdown.
func TestExportAfterSoonAndGroups(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return reviewBin(), nil }}
	p := open(t, fake)
	p, _ = pagetest.Press(p, "p")
	header, rows := readExport(t, p)
	if !slices.Equal(header, records.BinHeader()) {
		t.Errorf("entries: header %q, want the bin's records %q", header, records.BinHeader())
	}
	want := map[string]string{} // within 7 days, overdue included: b, c, d
	for _, e := range reviewBin().Items {
		if e.RecycleBinPurgedScheduledAt.Sub(pagetest.Now) < 7*24*time.Hour {
			want[e.VaultProject.ID] = e.RecycleBinPurgedScheduledAt.UTC().Format(time.RFC3339)
		}
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want the %d entries within the window: %v", len(rows), len(want), rows)
	}
	for _, r := range rows {
		if at, ok := want[r["project id"]]; !ok || r["purge at (UTC)"] != at {
			t.Errorf("row %v: want project id of an entry and its purge time %q", r, at)
		}
	}
	p, _ = pagetest.Press(p, "b")
	header, rows = readExport(t, p)
	if !slices.Equal(header, []string{"deleted by", "projects", "within 7d", "next purge", "next purge at (UTC)"}) {
		t.Errorf("groups: header %q", header)
	}
	var people []string
	for _, r := range rows {
		people = append(people, r["deleted by"])
	}
	if !slices.Equal(people, []string{"bob@firm.test", "ann@firm.test"}) || rows[0]["projects"] != "2" || rows[0]["next purge at (UTC)"] == "" {
		t.Errorf("group rows %v, want a person a row in the groups' order", rows)
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
