package account

import (
	"cmp"
	"net/url"
)

// Conn is where and as whom the program talks. Resolved.Conn builds it once
// per command (the command line) or per SSH session (serve), and it is
// handed down by pointer: the header, the upload journal, the access
// snapshots and the receipts all read this one value instead of copies of
// its fields.
type Conn struct {
	// Profile is the stored profile in use, shown in the header; "" when
	// there is none (the token comes from VAULTDECK_TOKEN alone, or is an
	// SSH session's own).
	Profile string
	// DataProfile is the name the local database keeps this connection's
	// data under (upload journal, access snapshots, cached responses): the
	// profile's, or the stand-in name used when the token comes alone.
	DataProfile string
	// Where names the endpoint for the header: "region eu" for a regional
	// one, else the host of the custom base URL.
	Where string
	// Workspace is the workspace's name when already known; "" makes the
	// root ask whoami once.
	Workspace string
	// Warning is shown in the header (a token kept in a plain file).
	Warning string
	// Session names who is at the keyboard when that is not this
	// machine's user (an SSH key).
	Session string
}

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
