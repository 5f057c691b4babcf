package serve

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/console"
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

// TestBoundProfileHonoursItsConsoleSettings: the console's own settings of a
// bound profile (`config set theme`, `config set stuck-after`) reach its
// sessions as timeout and max-rate do, and a flag typed to serve wins over
// them, as a flag typed to the console wins over the profile.
func TestBoundProfileHonoursItsConsoleSettings(t *testing.T) {
	set := func(f *fixture) {
		st, err := store.Open(filepath.Join(f.home, store.FileName))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		for k, v := range map[string]string{"theme": "light", "stuck-after": "5m0s"} {
			if err := st.SetSetting("sim", k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	f := startServer(t)
	set(f)
	o, err := f.srv.boundOptions(context.Background(), &session{key: &Key{Profile: "sim"}}, "sim", console.Options{Theme: "auto", StuckAfter: 30 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if o.Theme != "light" || o.StuckAfter != 5*time.Minute {
		t.Errorf("a bound session's console: theme %q, stuck after %s; want the profile's light and 5m0s", o.Theme, o.StuckAfter)
	}

	typed := startServer(t, func(c *Config) { c.Flags.Theme, c.Flags.StuckAfter = "dark", time.Hour })
	set(typed)
	o, err = typed.srv.boundOptions(context.Background(), &session{key: &Key{Profile: "sim"}}, "sim", console.Options{Theme: "dark", StuckAfter: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if o.Theme != "dark" || o.StuckAfter != time.Hour {
		t.Errorf("serve --theme dark --stuck-after 1h: theme %q, stuck after %s; the typed flags must win", o.Theme, o.StuckAfter)
	}
}

// TestServeFlagsReachEverySession: the global --timeout and --max-rate typed
// to serve reach the login sessions' clients and win over a bound profile's
// settings, as they do for every other command.
func TestServeFlagsReachEverySession(t *testing.T) {
	mr, err := account.ParseMaxRate("20%")
	if err != nil {
		t.Fatal(err)
	}
	f := startServer(t, func(c *Config) { c.Flags.Timeout, c.Flags.MaxRate = 700*time.Millisecond, mr })
	st, err := store.Open(filepath.Join(f.home, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetSetting("sim", "max-rate", "50%"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	b, err := f.srv.backendFor("sim")
	if err != nil {
		t.Fatal(err)
	}
	if b.account.Timeout != 700*time.Millisecond || b.client.Budget(api.CategoryVault).Limit != 2 {
		t.Errorf("bound profile: timeout %s, vault %d a minute; want serve's 700ms and 20%% (2)", b.account.Timeout, b.client.Budget(api.CategoryVault).Limit)
	}
	res, err := f.srv.loginAccount("tok-not-checked-here")
	if err != nil {
		t.Fatal(err)
	}
	if res.Timeout != 700*time.Millisecond || res.MaxRate != mr {
		t.Errorf("login session: timeout %s, max-rate %v; want serve's 700ms and 20%%", res.Timeout, res.MaxRate)
	}
}

// TestServeFlagsOnlyTypedOnesWin: serve's --theme and --stuck-after have
// defaults for its help text, but only a typed one may override a bound
// profile's setting; the global endpoint flags pass, base URL over region.
func TestServeFlagsOnlyTypedOnesWin(t *testing.T) {
	own := account.Flags{Theme: account.DefaultTheme, StuckAfter: account.DefaultStuckAfter}
	global := account.Flags{Profile: "p", BaseURL: "https://h.example", Region: "eu", Timeout: time.Second}
	f := serveFlags(own, global, func(string) bool { return false })
	if f.Theme != "" || f.StuckAfter != 0 || f.Profile != "" || f.Region != "" || f.BaseURL != global.BaseURL || f.Timeout != time.Second {
		t.Errorf("nothing typed: %+v; want no theme or stuck-after, the base URL without the region or profile, the timeout", f)
	}
	own.Theme = "dark"
	f = serveFlags(own, global, func(n string) bool { return n == "theme" })
	if f.Theme != "dark" || f.StuckAfter != 0 {
		t.Errorf("--theme dark typed: %+v", f)
	}
}
