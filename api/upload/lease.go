// This file is the runner's side of the journal's leases: the name this
// process holds them under, their renewal while a run works, and when a
// dead holder's lease may be taken.

package upload

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vaultdeck/vaultdeck/store"
)

// defaultOwner names this process in leases: host, pid and a random part
// (a pid is reused, a random part is not).
func defaultOwner() string {
	host, _ := os.Hostname()
	var b [6]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// holderIsGone lets a lease be taken from a process of this host that no
// longer runs (killed with -9, say) without waiting for it to expire.
func holderIsGone(holder string) bool {
	parts := strings.Split(holder, ":")
	if len(parts) < 3 {
		return false
	}
	host, _ := os.Hostname()
	pid, err := strconv.Atoi(parts[len(parts)-2])
	if err != nil || strings.Join(parts[:len(parts)-2], ":") != host || pid == os.Getpid() {
		return false
	}
	return processGone(pid)
}

func (r *Runner) ttl() time.Duration {
	if r.LeaseTTL > 0 {
		return r.LeaseTTL
	}
	return 2 * time.Minute
}

func (r *Runner) owner() string {
	if r.Owner == "" {
		r.Owner = defaultOwner()
	}
	return r.Owner
}

func (r *Runner) lease() store.Lease {
	steal := r.Steal
	if steal == nil {
		steal = holderIsGone
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
