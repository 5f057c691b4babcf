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
	every := r.renewEvery
	if every == 0 {
		every = r.ttl() / 4
	}
	if every < 0 {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				r.renew()
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// renew extends this process's leases by a TTL from now. A renewal that
// fails (the store already waited out any lock) stops the run before its
// next request: the lease may lapse, and another process may take a batch.
func (r *Runner) renew() {
	if err := r.Store.RenewLeases(r.owner(), r.now().Add(r.ttl())); err != nil {
		r.halt(&journalError{what: "the renewal of this upload's leases", err: err})
	}
}
