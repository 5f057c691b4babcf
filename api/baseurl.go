package api

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Regional hosts of the service; the paths are the same in every region.
var regionURLs = map[string]string{
	"us": "https://api.harvey.ai",
	"eu": "https://eu.api.harvey.ai",
	"au": "https://au.api.harvey.ai",
}

// ResolveBaseURL turns a region or a custom URL into the base URL the client
// uses. A custom URL wins over the region. HTTPS is required, except that
// plain HTTP is allowed to a loopback host (the simulator, a local proxy):
// the token never leaves the machine there.
func ResolveBaseURL(region, custom string) (string, error) {
	custom = strings.TrimSpace(custom)
	if custom == "" {
		r := strings.ToLower(strings.TrimSpace(region))
		if r == "" {
			r = "us"
		}
		u, ok := regionURLs[r]
		if !ok {
			return "", fmt.Errorf("unknown region %q: use us, eu or au, or give a base URL", region)
		}
		return u, nil
	}
	u, err := url.Parse(custom)
	if err != nil {
		return "", fmt.Errorf("base URL %q is not a valid URL: %w", custom, err)
	}
	if u.Host == "" {
		return "", fmt.Errorf("base URL %q has no host; write it like https://api.example.com", custom)
	}
	if u.User != nil {
		// Credentials in a URL end up in logs and error messages.
		return "", fmt.Errorf("base URL must not contain credentials; the token is sent in a header")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("base URL %q must not have a query or fragment", custom)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !IsLoopback(u.Hostname()) {
			return "", fmt.Errorf("base URL %q uses plain http to a non-loopback host; the token would travel unencrypted. Use https (plain http is accepted only for localhost, 127.0.0.0/8 and ::1)", u.Redacted())
		}
	default:
		return "", fmt.Errorf("base URL %q must start with https://", custom)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}

// IsLoopback reports whether host (without port) names this machine:
// localhost, 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
