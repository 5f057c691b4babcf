package recyclebinview

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// TestDetailScrollsAt40x12: at 40x12 (a body of 40x9) the detail pane shows
// values whole (wrapped, never "…") and scrolls down to the last field.
func TestDetailScrollsAt40x12(t *testing.T) {
	bin := fixture()
	bin.Items[1].VaultProject.ID = "0f8fad5b-d9cb-469f-a165-70867728950e"
	fake := &pagetest.Fake{RecycleBinFn: func(context.Context, api.RecycleBinQuery) (*api.RecycleBin, error) { return bin, nil }}
	p := open(t, fake)
	p.SetSize(40, 9)
	p, _ = pagetest.Press(p, "enter") // newest first: Newest Deal
	v := p.View()
	if n := strings.Count(v, "\n") + 1; n > 9 {
		t.Errorf("detail is %d lines in a body of 9:\n%s", n, v)
	}
	if strings.Contains(v, "is_knowledge_base_project") {
		t.Fatalf("all fields fit in 9 lines? %s", v)
	}
	seen := v
	for range 30 {
		p, _ = pagetest.Press(p, "j")
		seen += p.View()
	}
	for _, want := range []string{"is_knowledge_base", "0f8fad5b-d9cb-469f-a165-70867728950e"} {
		if !strings.Contains(seen, want) {
			t.Errorf("scrolling never showed %q:\n%s", want, seen)
		}
	}
	if strings.Contains(seen, "…") {
		t.Errorf("a value was cut:\n%s", seen)
	}
}
