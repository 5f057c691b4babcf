package store

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// The one lease scheme of the rows that a process works on (upload batches,
// access snapshots): the owner's name is host, pid and a random part (a pid
// is reused, a random part is not), so a holder killed with kill -9 on this
// machine is known to be gone and its lease is taken at once instead of
// after it lapses.

// LeaseOwner names this process in leases: host:pid:random.
func LeaseOwner() string {
	host, _ := os.Hostname()
	var b [6]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// HolderIsGone reports whether a lease holder named by LeaseOwner is a
// process of this host that no longer runs. Holders of other hosts, this
// process, or names of another shape are never taken over before their
// lease lapses.
func HolderIsGone(holder string) bool {
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

// leaseLapsed reports whether a lease held until until (milliseconds) no
// longer keeps a claimant out whose own lease would run from now to mine:
// it has ended, or it ends more than a lease's length after mine would (a
// clock set back while its holder had it: no process with a sane clock
// writes a lease that far ahead, and trusting it kept a batch or a crawl
// locked for as long as the clock jumped).
func leaseLapsed(until int64, now, mine time.Time) bool {
	return until < now.UnixMilli() || until > mine.Add(mine.Sub(now)).UnixMilli()
}
