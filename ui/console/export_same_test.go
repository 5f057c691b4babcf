package console_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/projectsview"
	"github.com/vaultdeck/vaultdeck/ui/projectview"
	"github.com/vaultdeck/vaultdeck/ui/recyclebinview"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// One export per view (issue 42): the console's e and the view's own
// command (its C) with --csv write the same file, byte for byte: the same
// columns in the order shown, the same cells (RFC 3339 UTC, booleans
// alike), the same rows in the same order.
func (h *equiv) sameExport(name string, p page.Page) {
	h.t.Helper()
	var e bytes.Buffer
	if err := p.(interface{ ExportTable() widgets.TableExport }).ExportTable().WriteCSV(&e); err != nil {
		h.t.Fatalf("%s: e: %v", name, err)
	}
	q := p.(page.Querier).Query()
	csv := h.cli(append(q.Args(), "--csv")...)
	if strings.Count(e.String(), "\n") < 3 {
		h.t.Fatalf("%s: e wrote %q: too few rows to mean something", name, e.String())
	}
	if csv != e.String() {
		h.t.Errorf("%s: e and `%s --csv` differ\n e:\n%s\n --csv:\n%s", name, q.Line(), e.String(), csv)
	}
}

func TestExportIsTheCommandsCSV(t *testing.T) {
	h := newEquiv(t)
	bin := loaded(t, recyclebinview.New(h.env, ""))
	h.sameExport("bin", bin)
	h.sameExport("bin purging soon", keys(bin, "p"))
	h.sameExport("projects", loaded(t, projectsview.New(h.env, "")))
	pid := h.headless(page.Query{Command: []string{"projects"}}, "id")[0]
	h.sameExport("project users", loaded(t, projectview.New(h.env, pid)))
}
