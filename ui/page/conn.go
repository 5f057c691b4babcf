package page

// Conn is where and as whom the program talks. It is built once, from the
// flags, the environment and the stored profile (ui/cli), or per SSH
// session (ui/serve), and handed down by pointer: the header, the upload
// journal, the access snapshots and the receipts all read this one value
// instead of copies of its fields.
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

// WithConn returns a copy of e holding c.
func (e Env) WithConn(c *Conn) Env {
	e.Conn = c
	return e
}
