package cli

import "github.com/vaultdeck/vaultdeck/api"

// rawItem prints an item of a JSON listing that the api handed as the
// server's own bytes (api.RawItem): a plain item goes out as sent, with no
// second scan; the others through safeRaw, as item does. The redacting
// writer on stdout checks the token in both.
func (l *listing) rawItem(it api.RawItem) error {
	l.p.item()
	l.n++
	return l.iw.raw(it)
}

// rawPageDone ends a page of rawItem's: stdout is flushed before the next
// page is asked for.
func (l *listing) rawPageDone() error {
	l.p.page()
	return l.r.flushOut()
}
