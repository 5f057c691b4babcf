package console

import (
	"strings"
	"testing"
)

// TestPersonRemoveSaysWhatItCannotChange: X on the row the leaver reaches
// through the workspace share plans nothing and says it is inherited;
// X on the project they own and alone manage is refused by name, as
// `access plan --remove` refuses it; neither sends a change.
func TestPersonRemoveSaysWhatItCannotChange(t *testing.T) {
	s, who, c := writableScreen(t)
	before := directOf(t, c, who)
	for _, tc := range []struct {
		name  string
		keys  []string
		wants []string
	}{
		// rows: MANAGE first (Bellhaven, Ironbridge, Meridian), then READ
		// (Acme, Eastgate, Firm Precedents Library, Juniper)
		{"inherited", []string{"j", "j", "j", "j", "j", "X"}, []string{"nothing to change", "Firm Precedents Library inherited", "changed in its sharing settings in the web app"}},
		{"sole manager", []string{"j", "X"}, []string{"refused: it would leave 1 project without MANAGE: Ironbridge"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := s.open(t, "person", who, 120, 40, "Activity")
			for _, k := range tc.keys {
				tm.Send(runes(k))
			}
			waitFor(t, tm, tc.wants...)
			if v := final(t, tm); strings.Contains(v, "Type ") {
				t.Errorf("a confirmation opened for a plan that changes nothing:\n%s", v)
			}
		})
	}
	if after := directOf(t, c, who); len(after) != len(before) {
		t.Errorf("direct shares %v before, %v after", before, after)
	}
}
