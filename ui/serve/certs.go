package serve

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/api/localfile"
)

// Certificates, as sshd's TrustedUserCAKeys and authorized_keys
// cert-authority lines: a line `cert-authority,principals="alice,bob" KEY
// firm-ca` admits OpenSSH user certificates signed by KEY for one of those
// principals (without principals=, the certificate must name the login's
// user, as sshd requires), checked by x/crypto's CertChecker: the
// signature, validity (valid after, valid before), the principal, and the
// critical options (source-address is enforced by the SSH library; any
// other, force-command among them, refuses the certificate, since this
// server would not honour it). A revoked-keys file (--revoked-keys, plain
// public keys one a line, as sshd's RevokedKeys takes them) refuses a
// certificate whose key, or whose CA, it lists, and a plain key it lists.

// CertAuthorityOption marks a line's key as a certificate authority.
const CertAuthorityOption = "cert-authority"

// PrincipalsOption lists the principals a CA line admits.
const PrincipalsOption = "principals"

// certKey checks cert against the CA lines of ks for the SSH user and
// returns the login's own copy of its CA line, naming the principal and the
// key ID, or why it is refused.
func (ks *Keys) certKey(cert *gossh.Certificate, user string, revoked *revokedKeys) (*Key, error) {
	ca := ks.caByBlob[string(cert.SignatureKey.Marshal())]
	if ca == nil {
		return nil, fmt.Errorf("its certificate authority is not listed")
	}
	if cert.CertType != gossh.UserCert {
		return nil, fmt.Errorf("not a user certificate")
	}
	if len(cert.ValidPrincipals) == 0 {
		return nil, fmt.Errorf("the certificate names no principal")
	}
	checker := &gossh.CertChecker{
		IsUserAuthority: func(k gossh.PublicKey) bool { return string(k.Marshal()) == string(ca.key.Marshal()) },
		IsRevoked: func(c *gossh.Certificate) bool {
			return revoked.has(c.Key) || revoked.has(c.SignatureKey)
		},
	}
	allowed := ca.Principals
	if len(allowed) == 0 {
		allowed = []string{user}
	}
	var last error
	for _, p := range allowed {
		if err := checker.CheckCert(p, cert); err != nil {
			last = err
			continue
		}
		k := *ca
		k.Principal, k.KeyID = p, cert.KeyId
		if cert.ValidBefore != gossh.CertTimeInfinity && cert.ValidBefore < 1<<63 {
			k.Expires = time.Unix(int64(cert.ValidBefore), 0)
		}
		k.Fingerprint = gossh.FingerprintSHA256(cert.Key)
		return &k, nil
	}
	return nil, last
}

// revokedKeys are the keys of the revoked-keys file (nil: none given).
type revokedKeys struct{ blobs map[string]bool }

func (r *revokedKeys) has(k gossh.PublicKey) bool {
	return r != nil && k != nil && r.blobs[string(k.Marshal())]
}

// loadRevoked reads the revoked-keys file: public keys, one a line, in
// authorized_keys form (options and comments ignored). An unreadable file
// admits no one (sshd refuses every key when RevokedKeys cannot be read).
func loadRevoked(path string) (*revokedKeys, error) {
	if path == "" {
		return nil, nil
	}
	b, err := localfile.Read(path, localfile.AuthorizedKeys)
	if err != nil {
		return nil, fmt.Errorf("reading the revoked keys: %w", err)
	}
	r := &revokedKeys{blobs: map[string]bool{}}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pub, _, _, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: not a public key in OpenSSH format", path, n+1)
		}
		if c, ok := pub.(*gossh.Certificate); ok {
			pub = c.Key
		}
		r.blobs[string(pub.Marshal())] = true
	}
	return r, nil
}

// certCriticalOptions passes a certificate's critical options to the SSH
// library, which enforces source-address from them.
func certCriticalOptions(ctx ssh.Context, cert *gossh.Certificate) {
	if p := ctx.Permissions(); p != nil && p.Permissions != nil && len(cert.CriticalOptions) > 0 {
		p.CriticalOptions = cert.CriticalOptions
	}
}

// endExpired ends every open session whose certificate has expired by now
// (watchKeys calls it at each poll).
func (s *Server) endExpired(now time.Time) {
	s.mu.Lock()
	var ended []*session
	for _, ss := range s.sessions {
		if e := ss.key.Expires; !e.IsZero() && !now.Before(e) {
			ended = append(ended, ss)
		}
	}
	s.mu.Unlock()
	for _, ss := range ended {
		s.log.Info("a certificate expired during its session", "principal", ss.key.Principal, "key_id", ss.key.KeyID)
		ss.end("your certificate expired; your session was closed")
	}
}
