package auditview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// At 80 columns the header line was cut at the edge: in the demo it read
// "… 200 down to the oldest (mirror) · mirror to 11-24 17:…", and a user
// filter with the mirror's time pushed the count and a failure's reason
// past the edge. It is laid out with widgets.Fit, as the other views'
// info lines: the title and the mirror's time give way, the filter, the
// count and a reason wrap, and the table gives up the lines they take.
func TestHeaderNeverCutsAt80(t *testing.T) {
	r := newRig(t, sim.Options{Seed: 5, AuditEntries: 3000}, true, "")
	r.m.SetSize(80, 22)
	r.run(r.m.Init())
	r.key("g")
	r.key("w")
	r.retype("someone.with.a.long.address@harrowgate-law.com")
	view := ansi.Strip(r.m.View())
	lines := strings.Split(view, "\n")
	if len(lines) > 22 {
		t.Errorf("the view is %d lines in 22", len(lines))
	}
	var head []string
	for _, l := range lines {
		if strings.Contains(l, "Time (UTC)") {
			break
		}
		head = append(head, l)
	}
	h := strings.Join(head, " ")
	for _, l := range head {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("header line of %d columns: %q", ansi.StringWidth(l), l)
		}
	}
	if strings.Contains(h, "…") || !strings.Contains(h, "user someone.with.a.long.address@harrowgate-law.com") {
		t.Errorf("header cut: %q", h)
	}
}
