package console

import (
	"cmp"
	"net/url"
)

// Where says where the data lives, for the header: "region eu" for a
// regional endpoint, else the host of the custom base URL. For a law firm
// the region is a legal fact, so the local console and every SSH session
// describe an endpoint by this one rule. base is the client's resolved base
// URL; baseURL and region are what was asked for.
func Where(baseURL, region, base string) string {
	if baseURL == "" {
		return "region " + cmp.Or(region, "us")
	}
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return base
}
