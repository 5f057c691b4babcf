package recyclebinview

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.5: "nothing to show" was drawn under "waiting 35s for the vault
// budget", which reads as empty. While the first load runs the table says
// it is loading.
func TestLoadingIsNotEmpty(t *testing.T) {
	p := New(pagetest.Env(t, &pagetest.Fake{}, false), "")
	p.SetSize(100, 20)
	p.Init() // the load starts; its answer has not come
	if v := p.View(); strings.Contains(v, "nothing to show") || !strings.Contains(v, "loading") {
		t.Errorf("while the first load runs:\n%s", v)
	}
}
