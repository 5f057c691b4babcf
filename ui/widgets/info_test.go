package widgets

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TestInfoLines: the one info line of every list view keeps counts,
// filters and a failure's reason whole, and lets the title and a plain
// "loading" go first when the terminal is narrow.
func TestInfoLines(t *testing.T) {
	th := testTheme(t)
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

	var loading page.LoadState
	loading.Begin(context.Background())
	info := Info{Title: "Projects", Parts: []Part{Keep("3 of 40 loaded"), Keep(`name contains "deal"`)}, State: &loading}
	if got := strings.Join(info.Lines(th, 0, now), "\n"); got != `Projects · 3 of 40 loaded · name contains "deal" · loading` {
		t.Fatalf("wide: %q", got)
	}
	if got := strings.Join(info.Lines(th, 36, now), "\n"); got != "3 of 40 loaded\nname contains \"deal\"" {
		t.Fatalf("narrow: %q", got)
	}

	var failed page.LoadState
	failed.Failed(errors.New("boom"))
	info = Info{Title: "Recycle bin", State: &failed}
	if got := strings.Join(info.Lines(th, 20, now), "\n"); got != "failed · r retries" {
		t.Fatalf("a failure is kept, the title gives way: %q", got)
	}
	if got := (Info{Title: "File status"}).Lines(th, 80, now); len(got) != 1 || got[0] != "File status" {
		t.Fatalf("no state: %q", got)
	}
}
