package console

import (
	"log/slog"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// StoreCache binds the store's response cache to one profile, so views can
// show what they saw last time (with its age) without spending budget.
type StoreCache struct {
	Store   *store.Store
	Profile string
	Now     func() time.Time
	Logger  *slog.Logger
}

// Get returns a cached body and when it was fetched.
func (c StoreCache) Get(key string) ([]byte, time.Time, bool) {
	body, at, ok, err := c.Store.Cache(c.Profile, key)
	if err != nil {
		c.log("cache read failed", key, err)
		return nil, time.Time{}, false
	}
	return body, at, ok
}

// Put stores a body. A failed write only costs a refetch later, so it is
// logged, not shown.
func (c StoreCache) Put(key string, body []byte) {
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	if err := c.Store.PutCache(c.Profile, key, body, now()); err != nil {
		c.log("cache write failed", key, err)
	}
}

// Delete drops a cached body that is known to be stale (after a deletion).
func (c StoreCache) Delete(key string) {
	if err := c.Store.DeleteCache(c.Profile, key); err != nil {
		c.log("cache delete failed", key, err)
	}
}

func (c StoreCache) log(msg, key string, err error) {
	if c.Logger != nil {
		c.Logger.Debug(msg, "key", key, "err", err)
	}
}
