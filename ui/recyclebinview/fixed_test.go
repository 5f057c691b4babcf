package recyclebinview

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.2 (seen by hand): in one deleter's entries (b, enter) every row
// repeated "bob" in its deleted-by column, which the header already says
// ("deleted by bob@firm.test"). A column the grouping fixes is said once
// and dropped from the rows; the export still writes it (a file read
// alone says whose), and esc brings it back.
func TestDeleterEntriesDropTheFixedColumn(t *testing.T) {
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return reviewBin(), nil }}
	p := open(t, fake)
	p.SetSize(120, 20)
	p, _ = pagetest.Press(p, "b")
	p, _ = pagetest.Press(p, "enter")
	v := p.View()
	if !strings.Contains(v, "deleted by bob@firm.test") {
		t.Fatalf("bob's entries:\n%s", v)
	}
	for _, name := range []string{"Today Bob", "Overdue Bob", "Later Bob"} {
		if l := lineWith(v, name); strings.Contains(l, "bob") { // "Bob" is the name's
			t.Errorf("the row repeats its deleter: %q", l)
		}
	}
	if strings.Contains(lineWith(v, "project"), "deleted by") {
		t.Errorf("the deleted-by column is still drawn:\n%s", v)
	}
	var b bytes.Buffer
	if err := p.(*Model).ExportTable().WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 4 || recs[0][ColDeletedBy] != "deleted by" || recs[1][ColDeletedBy] != "bob@firm.test" {
		t.Errorf("the export lost whose entries these are: %q %v", recs, err)
	}
	p, _ = pagetest.Press(p, "esc")
	p, _ = pagetest.Press(p, "esc")
	if v = p.View(); !strings.Contains(lineWith(v, "Later Ann"), "ann") {
		t.Errorf("back to all entries, the deleter column did not come back:\n%s", v)
	}
}
