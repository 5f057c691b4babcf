package serve

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Startups is OpenSSH's MaxStartups start:rate:full. Past Start connections
// without a session, a new one is dropped with probability Rate percent,
// rising linearly to 100 at Full; at Full every new one is. A plain number
// N means N:100:N (every one past N refused, as OpenSSH reads it).
//
// Unlike OpenSSH, a connection that has not yet sent its SSH identification
// line ("silent") is closed, oldest first, to make room before anything is
// dropped: a real client sends its line at once, so twelve sockets held
// open without a word (issue 26 case 7: 0 of 20 admin logins) now make
// room for the admin instead of taking it.
type Startups struct{ Start, Rate, Full int }

// DefaultMaxStartups is OpenSSH's default, 10:30:100.
var DefaultMaxStartups = Startups{Start: 10, Rate: 30, Full: 100}

// Defaults of the other pre-session limits.
const (
	// DefaultBannerTimeout: a client sends its identification line as soon
	// as it connects; one that has sent none after this is not a client.
	// Separate from (and much shorter than) the login grace time, which a
	// person typing a passphrase needs.
	DefaultBannerTimeout = 5 * time.Second
	// DefaultPerSourceMaxStartups is how many connections without a session
	// one address may have (OpenSSH's PerSourceMaxStartups, "none" there):
	// enough for a few admins behind one NAT logging in at once, and too
	// few for one address to take every slot.
	DefaultPerSourceMaxStartups = 5
)

// String is the flag's form, start:rate:full.
func (s Startups) String() string { return fmt.Sprintf("%d:%d:%d", s.Start, s.Rate, s.Full) }

// Type names the flag's value in help.
func (*Startups) Type() string { return "start:rate:full" }

// Set parses N or start:rate:full, as sshd_config does.
func (s *Startups) Set(v string) error {
	parts := strings.Split(v, ":")
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not N or start:rate:full (e.g. 10:30:100)", v)
		}
		nums[i] = n
	}
	switch {
	case len(nums) == 1 && nums[0] > 0:
		*s = Startups{Start: nums[0], Rate: 100, Full: nums[0]}
	case len(nums) == 3 && nums[0] > 0 && nums[1] <= 100 && nums[2] >= nums[0]:
		*s = Startups{Start: nums[0], Rate: nums[1], Full: nums[2]}
	default:
		return fmt.Errorf("%q: want N, or start:rate:full with start > 0, rate at most 100 and full at least start (e.g. 10:30:100)", v)
	}
	return nil
}

func (s Startups) orDefault() Startups {
	if s.Start <= 0 {
		return DefaultMaxStartups
	}
	if s.Full < s.Start {
		s.Full, s.Rate = s.Start, 100
	}
	return s
}

// dropChance is the percentage of new connections dropped with n pending:
// 0 below Start, Rate at Start rising linearly to 100 at Full.
func (s Startups) dropChance(n int) int {
	switch {
	case n < s.Start:
		return 0
	case n >= s.Full:
		return 100
	}
	return s.Rate + (100-s.Rate)*(n-s.Start)/(s.Full-s.Start)
}

// clock is the time startups read: real in the server, a fake in tests
// (grace and banner deadlines fired by the test, no sleeps).
type clock interface {
	AfterFunc(d time.Duration, f func()) stopper
}

type stopper interface{ Stop() bool }

type realClock struct{}

func (realClock) AfterFunc(d time.Duration, f func()) stopper { return time.AfterFunc(d, f) }

// roll is a number in [0,100) for the random early drop.
func roll() int { return rand.IntN(100) }

// Reasons sent to a refused client, before the server's banner: RFC 4253
// 4.2 lets the server send lines before its identification; OpenSSH's
// client shows them with -v ("kex_exchange_identification: banner line 0:
// …"), other clients and netcat as they are.
const (
	reasonBusy    = "vaultdeck: too many connections are logging in at once; try again in a few seconds"
	reasonSource  = "vaultdeck: too many connections from your address are logging in at once; close some, or try again in a few seconds"
	reasonSilent  = "vaultdeck: closed: no SSH identification was sent and other clients are waiting"
	reasonTimeout = "vaultdeck: closed: no SSH identification was sent in time"
	reasonStale   = "vaultdeck: closed: no login was completed in time and other clients are waiting"
)
