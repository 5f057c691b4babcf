package serve

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestBoundProfileHonoursItsSettings: `vaultdeck config set timeout` and
// `config set max-rate` store a profile's settings; the sessions serve
// binds to that profile must use them, as the local console does. The
// header's budget shows the cap (50% of vault's 10 a minute), and a
// recycle bin that never answers fails after the profile's timeout, not
// the default 30 s.
func TestBoundProfileHonoursItsSettings(t *testing.T) {
	f := startServer(t)
	st, err := store.Open(filepath.Join(f.home, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	// The values `config set` stores (account.Normalize's forms).
	for k, v := range map[string]string{"timeout": "300ms", "max-rate": "50%"} {
		if err := st.SetSetting("sim", k, v); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	f.hits.hold(binPath)

	tm := f.open(f.bound, nil)
	tm.waitFor("Acme Corp v. Halvorsen")
	tm.send("j") // the header redraws with the budget after the listing
	if !shows(tm, "vault 4/5") {
		t.Errorf("max-rate 50%% did not reach the session's client: the header shows no vault 4/5:\n%s", tm.text())
	}
	tm.send(":bin\r")
	if !shows(tm, "after 300ms") {
		t.Errorf("timeout 300ms did not reach the session's client: no timeout after 300ms on the screen:\n%s", tm.text())
	}
}

// TestCrawlHonoursTheProfilesMaxRate: the scheduled crawl's client is the
// bound profile's too: its max-rate caps the crawl below crawlRate (30% of
// vault's 10 a minute: 3), and without one the crawl keeps to crawlRate.
func TestCrawlHonoursTheProfilesMaxRate(t *testing.T) {
	f := startServer(t)
	limit := func() (crawl, session int) {
		f.srv.mu.Lock()
		delete(f.srv.bound, "sim") // built again, from what is stored now
		f.srv.mu.Unlock()
		b, err := f.srv.backendFor("sim")
		if err != nil {
			t.Fatal(err)
		}
		c, err := f.srv.crawlClient(b)
		if err != nil {
			t.Fatal(err)
		}
		return c.Budget(api.CategoryVault).Limit, b.client.Budget(api.CategoryVault).Limit
	}
	if crawl, session := limit(); crawl != crawlRate || session != api.DefaultVaultLimit {
		t.Errorf("without max-rate: crawl %d, sessions %d a minute; want %d and %d", crawl, session, crawlRate, api.DefaultVaultLimit)
	}
	st, err := store.Open(filepath.Join(f.home, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.SetSetting("sim", "max-rate", "30%"); err != nil {
		t.Fatal(err)
	}
	if crawl, session := limit(); crawl != 3 || session != 3 {
		t.Errorf("max-rate 30%%: crawl %d, sessions %d a minute; want 3 and 3", crawl, session)
	}
}

// shows waits, with a deadline, until the session's output shows s.
func shows(tm *term, s string) bool {
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(tm.text(), s) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond) // polls a condition; the deadline is the only timing
	}
	return true
}
