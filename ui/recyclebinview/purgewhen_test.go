package recyclebinview

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// Issue 29.8: the detail pane read "purge in overdue". The countdown is a
// phrase: "purge overdue", "purge in 3d04h", "purge not scheduled".
func TestPurgePhrase(t *testing.T) {
	m := New(pagetest.Env(t, &pagetest.Fake{}, false), "").(*Model)
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{pagetest.Now.Add(-time.Hour), "purge overdue"},
		{pagetest.Now.Add(76 * time.Hour), "purge in 3d04h"},
		{time.Time{}, "purge not scheduled"},
	} {
		var e api.RecycleBinEntry
		e.RecycleBinPurgedScheduledAt.Time = c.at
		if v := m.detailText(e, 100); !strings.Contains(v, c.want) || strings.Contains(v, "in overdue") {
			t.Errorf("%v: want %q in\n%s", c.at, c.want, v)
		}
	}
}
