// This file is the runner's side of the journal's leases: their renewal
// while a run works. The owner's name and when a dead holder's lease may be
// taken are store's one lease scheme (store/lease.go), shared with the
// access crawl.

package upload

import (
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

func (r *Runner) ttl() time.Duration {
	if r.LeaseTTL > 0 {
		return r.LeaseTTL
	}
	return 2 * time.Minute
}

func (r *Runner) owner() string {
	if r.Owner == "" {
		r.Owner = store.LeaseOwner()
	}
	return r.Owner
}

func (r *Runner) lease() store.Lease {
	steal := r.Steal
	if steal == nil {
		steal = store.HolderIsGone
	}
	return store.Lease{Owner: r.owner(), Until: r.now().Add(r.ttl()), Steal: steal}
}

// keepLeases renews this process's leases until stop is called, so a long
// request keeps its batch.
func (r *Runner) keepLeases() (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(r.ttl() / 4)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = r.Store.RenewLeases(r.owner(), r.now().Add(r.ttl()))
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
