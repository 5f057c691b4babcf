package access

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.7: in the demo (a temporary home, an in-process simulator) the
// view said to run `vaultdeck access crawl` in a shell, which cannot reach
// the demo's data. Where the session runs the crawl itself (Env.Chores)
// the hint offers its key, and the page names the chore for the root;
// elsewhere the shell command stays.
func TestNoSnapshotOffersTheCrawlHere(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	env.Chores = &page.Chores{CrawlAccess: func(context.Context, page.Progress) (page.Outcome, error) { return page.Outcome{}, nil }}
	m := New(env, Deps{Store: st, Profile: "work"})
	m.SetSize(80, 24)
	run(t, m, m.Init())
	if v := m.View(); !strings.Contains(v, "press L to run the access crawl here") || strings.Contains(v, "`vaultdeck access crawl`") {
		t.Errorf("in the demo:\n%s", v)
	}
	if m.Chore() != page.ChoreCrawlAccess || !hints(m, "L") {
		t.Errorf("chore %q, hints %v", m.Chore(), m.ContextKeys())
	}
}
