package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/api/localfile"
)

// Keys take effect when changed, as OpenSSH's AuthorizedKeysFile does: the
// file is read again at each login (authorize) and when a session is
// admitted (gate), so a removed line refuses the key's next login; and it
// is polled (watchKeys), so a removed or changed line closes the key's open
// sessions with a message within two polls. SIGHUP applies it at once.

// keysPoll is how often the keys file is looked at for open sessions. A
// change is applied once two polls in a row read the same content, so a
// file caught half-written (a shell's `>` truncates first) closes nobody:
// a removal takes effect within 2*keysPoll, well inside 10 s.
const keysPoll = 2 * time.Second

// loginKeysKey is where a connection's authorize calls leave the lines they
// matched, by key blob: the gate takes the one of the key that signed.
type loginKeysKey struct{}

// readKeys reads and parses the keys file now. An unreadable file admits
// no one (its content's sum is then the error's).
func (s *Server) readKeys() (*Keys, [32]byte, error) {
	b, err := localfile.Read(s.cfg.AuthorizedKeys, localfile.AuthorizedKeys)
	if err != nil {
		return &Keys{byBlob: map[string]*Key{}}, sha256.Sum256([]byte("error: " + err.Error())), err
	}
	return ParseKeys(b), sha256.Sum256(b), nil
}

// authorize is the public-key check: the key must be on an accepted line
// of the keys file as it is now.
func (s *Server) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	ks, _, err := s.readKeys()
	if err != nil {
		s.log.Warn("the authorized keys could not be read at a login; refusing it", "error", err)
		return false
	}
	revoked, err := loadRevoked(s.cfg.RevokedKeys)
	if err != nil {
		s.log.Warn("the revoked keys could not be read at a login; refusing it", "error", err)
		return false
	}
	var k *Key
	if cert, ok := key.(*gossh.Certificate); ok {
		if k, err = ks.certKey(cert, ctx.User(), revoked); err != nil {
			s.log.Info("a certificate was refused", "key_id", cert.KeyId, "principals", strings.Join(cert.ValidPrincipals, ","),
				"remote", ctx.RemoteAddr().String(), "why", err.Error())
			return false
		}
		certCriticalOptions(ctx, cert) // source-address: the SSH library checks it
	} else if k = ks.Lookup(key); k == nil || revoked.has(key) {
		return false
	}
	m, _ := ctx.Value(loginKeysKey{}).(map[string]*Key)
	if m == nil {
		m = map[string]*Key{}
		ctx.SetValue(loginKeysKey{}, m)
	}
	m[string(key.Marshal())] = k
	return true
}

// sessionKey is the line that admitted the session's key, if the file as it
// is now still holds that same line (nil: refused).
func (s *Server) sessionKey(sess ssh.Session) *Key {
	pub := sess.PublicKey()
	if pub == nil {
		return nil
	}
	m, _ := sess.Context().Value(loginKeysKey{}).(map[string]*Key)
	k := m[string(pub.Marshal())]
	if k == nil {
		return nil
	}
	ks, _, err := s.readKeys()
	if err != nil || !k.sameAs(ks.line(k.key)) {
		return nil
	}
	return k
}

// watchKeys polls the keys file until ctx ends.
func (s *Server) watchKeys(ctx context.Context) {
	t := time.NewTicker(keysPoll)
	defer t.Stop()
	var seen [32]byte
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.endExpired(time.Now())
		ks, sum, err := s.readKeys()
		s.mu.Lock()
		applied := s.keysSum
		s.mu.Unlock()
		switch {
		case sum == applied:
			seen = sum
		case sum != seen:
			seen = sum // changed: applied at the next poll if it holds still
		default:
			s.applyKeys(ks, sum, err, "changed")
		}
	}
}

// Reload reads the keys file and applies it now (SIGHUP).
func (s *Server) Reload() {
	ks, sum, err := s.readKeys()
	s.applyKeys(ks, sum, err, "SIGHUP")
}

// applyKeys makes ks the server's keys and closes every open session whose
// line is gone or changed.
func (s *Server) applyKeys(ks *Keys, sum [32]byte, err error, why string) {
	if err != nil {
		s.log.Warn("the authorized keys could not be read; no key is admitted until they can", "error", err)
	}
	for _, p := range ks.Problems {
		s.log.Warn("authorized keys: "+p, "path", s.cfg.AuthorizedKeys)
	}
	s.mu.Lock()
	s.keys, s.keysSum = ks, sum
	var gone, changed []*session
	for _, ss := range s.sessions {
		now := ks.line(ss.key.key)
		switch {
		case now == nil:
			gone = append(gone, ss)
		case !ss.key.sameAs(now):
			changed = append(changed, ss)
		}
	}
	s.mu.Unlock()
	s.log.Info("authorized keys reloaded", "why", why, "keys", len(ks.List), "skipped", len(ks.Problems),
		"sessions_closed", len(gone)+len(changed))
	for _, ss := range gone {
		ss.end("your key is no longer in the server's authorized keys; your session was closed")
	}
	for _, ss := range changed {
		ss.end("your key's line in the server's authorized keys changed; log in again for what it now allows")
	}
}

// sameAs: the same key on a line with the same options.
func (k *Key) sameAs(o *Key) bool {
	return k != nil && o != nil && bytes.Equal(k.key.Marshal(), o.key.Marshal()) && k.options() == o.options()
}

// options is what the line's options decide, for comparing two reads.
func (k *Key) options() string {
	return fmt.Sprintf("%q %v %v %q", k.Profile, k.Writes, k.CA, k.Principals)
}
