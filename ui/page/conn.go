package page

import "github.com/vaultdeck/vaultdeck/api/account"

// WithConn returns a copy of e holding c, the one connection value built by
// api/account (the header, the journal and the receipts read it).
func (e Env) WithConn(c *account.Conn) Env {
	e.Conn = c
	return e
}
