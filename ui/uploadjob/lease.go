package uploadjob

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
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
