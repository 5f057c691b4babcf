package account

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
)

// MaxRate is the user's cap on vaultdeck's own requests (`--max-rate`, or
// the profile's `max-rate` setting). The service's limits are the whole
// organisation's, and other integrations spend them unseen: a cap keeps
// vaultdeck below the limit, leaving them room. Either a share of every
// category's limit ("80%": vault 8, audit 48, client matters 120 a minute)
// or requests a minute in each category ("6", never above a limit).
type MaxRate struct {
	percent   int // 1..100; 0: not a share
	perMinute int // >= 1; 0: not a count
}

// Set reports whether a cap was given.
func (m MaxRate) Set() bool { return m.percent > 0 || m.perMinute > 0 }

func (m MaxRate) String() string {
	if m.percent > 0 {
		return fmt.Sprintf("%d%%", m.percent)
	}
	return strconv.Itoa(m.perMinute)
}

// ParseMaxRate reads "80%" or "6".
func ParseMaxRate(v string) (MaxRate, error) {
	v = strings.TrimSpace(v)
	if p, ok := strings.CutSuffix(v, "%"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 100 {
			return MaxRate{}, fmt.Errorf("max-rate takes a share of each limit from 1%% to 100%%, or requests a minute such as 6 (got %q)", v)
		}
		return MaxRate{percent: n}, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return MaxRate{}, fmt.Errorf("max-rate takes requests a minute (at least 1) such as 6, or a share of each limit such as 80%% (got %q)", v)
	}
	return MaxRate{perMinute: n}, nil
}

// Apply caps each category of l; a category without a client-side limit
// (negative, the simulator's --no-rate-limit) stays without. For a
// simulator on this machine (local: a loopback base URL) requests a minute
// above a limit lift it instead: that is how the e2e tests crawl a
// simulator started with --no-rate-limit without a minute's wait, with one
// knob, the same --max-rate. No real service is ever sent more than its
// limit: a share never lifts, and neither does a count for another host.
func (m MaxRate) Apply(l api.Limits, local bool) api.Limits {
	if !m.Set() {
		return l
	}
	limit := func(c api.Category) int {
		n := l.Of(c)
		switch {
		case n < 0:
			return n
		case m.percent > 0:
			return max(1, n*m.percent/100)
		case local:
			return m.perMinute
		default:
			return min(n, m.perMinute)
		}
	}
	return api.Limits{Vault: limit(api.CategoryVault), Audit: limit(api.CategoryAudit), Matters: limit(api.CategoryMatters)}
}

// Loopback reports whether base (a URL) points at this machine: the one
// rule for what plain HTTP may reach and for whom a cap may lift a limit.
func Loopback(base string) bool {
	u, err := url.Parse(base)
	if err != nil {
		return false
	}
	return loopbackHost(u.Hostname())
}

func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
