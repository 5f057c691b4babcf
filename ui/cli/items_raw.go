package cli

import "github.com/vaultdeck/vaultdeck/api"

// rawPage prints a page of a JSON listing that the api handed as the
// server's own bytes (api.RawItem): a plain item goes out as sent, with no
// second scan; the others through safeRaw, as item does. The redacting
// writer on stdout checks the token in both.
func (l *listing) rawPage(page []api.RawItem) error {
	for _, it := range page {
		l.p.item()
		l.n++
		if err := l.iw.raw(it); err != nil {
			return err
		}
	}
	l.p.page()
	return l.r.flushOut()
}
