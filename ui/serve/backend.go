package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/themes"
	"github.com/vaultdeck/vaultdeck/ui/console"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// profileBackend is one bound profile's client, shared by every session
// on that profile: one token source, one client, so one budget counter in
// every header and one set of in-flight requests. The profile is resolved
// by api/account, as the local console's is, so its settings (timeout,
// max-rate) reach the client.
type profileBackend struct {
	account *account.Resolved
	client  *api.SharedClient
}

// backendFor returns (building once) the backend of a bound profile.
func (s *Server) backendFor(name string) (*profileBackend, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.bound[name]; b != nil {
		return b, nil
	}
	chosen, err := account.OpenBound(account.Env{Getenv: s.cfg.Getenv}, s.st, name)
	if err != nil {
		return nil, err
	}
	// No environment and no endpoint flag: a bound profile connects where
	// it was stored (one VAULTDECK_BASE_URL would point every profile at
	// one endpoint); serve's typed settings win over the profile's.
	res, err := account.Resolve(account.Request{Chosen: chosen, Flags: s.cfg.Flags.Settings(), Themes: themes.Names()})
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", name, err)
	}
	c, err := s.client(res)
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", name, err)
	}
	b := &profileBackend{account: res, client: c}
	s.bound[name] = b
	s.redBound.Add(c.Redact)
	return b, nil
}

// shared are the parts every client of the server shares: one budget
// registry, and the store's ledger, so sessions, the console and the CLI
// on this machine share the workspace's budget; and the transport that
// counts each session's requests (count.go).
func (s *Server) shared(agent string) account.Shared {
	return account.Shared{HTTPClient: s.cfg.HTTPClient, Budgets: s.budgets, Ledger: s.st, Limits: s.cfg.Limits, UserAgent: agent,
		WrapTransport: s.wrapCounting}
}

// client builds a session client of res on the server's one budget
// registry and share.
func (s *Server) client(res *account.Resolved) (*api.SharedClient, error) {
	c, err := res.Client(s.shared("vaultdeck serve"))
	if err != nil {
		return nil, err
	}
	s.redRecent.Add(c.Redact)
	return s.share.Client(c), nil
}

// cacheFor is the response cache of a bound profile (the store's, so it
// outlives the process like the local console's) or, for a session that
// logged in with its own token, an in-memory one shared only with sessions
// on that same token.
// The in-memory one is counted per session and dropped when its last session
// ends, so a token pasted once does not keep workspace data in the server's
// memory for the life of the process.
func (s *Server) cacheFor(ss *session, profile, tok string) page.Cache {
	if profile != "" {
		return console.StoreCache{Store: s.st, Profile: profile}
	}
	sum := sha256.Sum256([]byte(tok))
	h := hex.EncodeToString(sum[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.caches[h]
	if c == nil {
		c = &memCache{m: map[string]memEntry{}}
		s.caches[h] = c
	}
	if ss.loginCache == "" {
		ss.loginCache = h
		c.users++
	}
	return c
}

// memCache is a page.Cache in memory.
type memCache struct {
	users int // sessions using it; guarded by the Server's mu
	mu    sync.Mutex
	m     map[string]memEntry
}

type memEntry struct {
	body []byte
	at   time.Time
}

func (c *memCache) Get(key string) ([]byte, time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	return e.body, e.at, ok
}

func (c *memCache) Put(key string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[key] = memEntry{body: append([]byte(nil), body...), at: time.Now()}
}

func (c *memCache) Delete(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, key)
}
