package person

import (
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// StoreCache is the store's response cache bound to one profile: the
// same entries the console reads and writes, so a report after the
// console showed the bin costs no request, and the other way round.
type StoreCache struct {
	Store   *store.Store
	Profile string
}

// Get implements Cache.
func (c StoreCache) Get(key string) ([]byte, time.Time, bool, error) {
	return c.Store.Cache(c.Profile, key)
}

// Put implements Cache.
func (c StoreCache) Put(key string, body []byte, at time.Time) error {
	return c.Store.PutCache(c.Profile, key, body, at)
}
