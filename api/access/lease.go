package access

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// The lease's owner names: host, pid and a random part (a pid is reused, a
// random part is not), the scheme of the upload journal's leases
// (api/upload/lease.go), so a crawl killed with kill -9 on this machine
// is resumed at once instead of after its lease lapses.

func defaultOwner() string {
	host, _ := os.Hostname()
	var b [6]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// HolderIsGone reports whether a lease holder is a process of this host
// that no longer runs. Holders of other hosts, or names of another shape,
// are never taken over before their lease lapses.
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
