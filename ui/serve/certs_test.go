package serve

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// certFor signs a user certificate of k's key by ca.
func certFor(t testing.TB, ca gossh.Signer, k gossh.Signer, id string, principals []string, after, before time.Time, crit map[string]string) *gossh.Certificate {
	t.Helper()
	c := &gossh.Certificate{Key: k.PublicKey(), Serial: 1, CertType: gossh.UserCert, KeyId: id, ValidPrincipals: principals,
		ValidAfter: uint64(after.Unix()), ValidBefore: uint64(before.Unix()),
		Permissions: gossh.Permissions{CriticalOptions: crit, Extensions: map[string]string{"permit-pty": ""}}}
	if err := c.SignCert(rand.Reader, ca); err != nil {
		t.Fatal(err)
	}
	return c
}

func certSigner(t testing.TB, c *gossh.Certificate, k gossh.Signer) gossh.Signer {
	t.Helper()
	s, err := gossh.NewCertSigner(c, k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A certificate signed by a listed CA for principal alice logs in, and the
// session's header and log line name the principal; one expired, one for
// another principal, one with a critical option serve does not honour and
// one whose key is revoked are refused.
func TestCertificates(t *testing.T) {
	_, caPriv, _ := ed25519.GenerateKey(rand.Reader)
	ca, _ := gossh.NewSignerFromKey(caPriv)
	caLine := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ca.PublicKey())))
	revoked := newKeyFile(t)
	revokedFile := t.TempDir() + "/revoked"
	if err := os.WriteFile(revokedFile, []byte(revoked.line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := startServer(t, func(c *Config) { c.RevokedKeys = revokedFile })
	f.writeKeys(t, f.keysWithout(t)+fmt.Sprintf("\n%s,%s=\"alice,bob\",%s=\"sim\" %s firm-ca\n", CertAuthorityOption, PrincipalsOption, ProfileOption, caLine))
	now := time.Now()
	user := newKeyFile(t)
	good := certFor(t, ca, user.signer, "alice@firm 2026-12", []string{"alice"}, now.Add(-time.Hour), now.Add(time.Hour), nil)

	tm := f.open(certSigner(t, good, user.signer), nil)
	tm.waitFor("1/12")
	tm.waitFor("alice (certificate)")
	tm.send("q")
	tm.exit()
	waitUntil(t, "the session's log line", func() bool { return strings.Contains(f.log.String(), "principal=alice") }, f.log.String)
	if !strings.Contains(f.log.String(), `key_id="alice@firm 2026-12"`) {
		t.Errorf("the log line does not name the key ID:\n%s", f.log.String())
	}

	for _, tc := range []struct {
		name string
		cert *gossh.Certificate
		key  gossh.Signer
	}{
		{"expired", certFor(t, ca, user.signer, "alice", []string{"alice"}, now.Add(-2*time.Hour), now.Add(-time.Hour), nil), user.signer},
		{"another principal", certFor(t, ca, user.signer, "mallory", []string{"mallory"}, now.Add(-time.Hour), now.Add(time.Hour), nil), user.signer},
		{"force-command", certFor(t, ca, user.signer, "alice", []string{"alice"}, now.Add(-time.Hour), now.Add(time.Hour), map[string]string{"force-command": "/bin/true"}), user.signer},
		{"source-address elsewhere", certFor(t, ca, user.signer, "alice", []string{"alice"}, now.Add(-time.Hour), now.Add(time.Hour), map[string]string{"source-address": "10.9.9.9/32"}), user.signer},
		{"revoked key", certFor(t, ca, revoked.signer, "alice", []string{"alice"}, now.Add(-time.Hour), now.Add(time.Hour), nil), revoked.signer},
	} {
		if c, err := f.dial(gossh.PublicKeys(certSigner(t, tc.cert, tc.key))); err == nil {
			c.Close()
			t.Errorf("%s: the certificate logged in", tc.name)
		}
	}
	// the CA's own key is not a key that logs in
	if c, err := f.dial(gossh.PublicKeys(ca)); err == nil {
		c.Close()
		t.Error("the CA's key logged in as a plain key")
	}
}

// Through OpenSSH: ssh picks up id_ed25519-cert.pub beside the key; the
// certificate for alice is admitted (the gate then says the console needs a
// terminal: it was let in), the expired one is refused at authentication.
func TestCertificatesWithOpenSSH(t *testing.T) {
	_, caPriv, _ := ed25519.GenerateKey(rand.Reader)
	ca, _ := gossh.NewSignerFromKey(caPriv)
	caLine := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ca.PublicKey())))
	f := startServer(t)
	f.writeKeys(t, f.keysWithout(t)+fmt.Sprintf("\n%s,%s=\"alice\",%s=\"sim\" %s firm-ca\n", CertAuthorityOption, PrincipalsOption, ProfileOption, caLine))
	now := time.Now()
	for _, tc := range []struct {
		name   string
		before time.Time
		want   string
	}{{"valid", now.Add(time.Hour), "the console needs a terminal"}, {"expired", now.Add(-time.Minute), "Permission denied"}} {
		user := newKeyFile(t)
		c := certFor(t, ca, user.signer, "alice@firm", []string{"alice"}, now.Add(-time.Hour), tc.before, nil)
		if err := os.WriteFile(user.path+"-cert.pub", gossh.MarshalAuthorizedKey(c), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := f.openssh(t, user.path, "-T")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		_ = cmd.Run()
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s certificate: ssh said %q, want %q", tc.name, out.String(), tc.want)
		}
	}
}

// A certificate that expires during its session ends that session with a
// message, within a poll of the keys file: a leaver's access ends with
// the certificate, not with their next login.
func TestExpiringCertificateEndsItsSession(t *testing.T) {
	_, caPriv, _ := ed25519.GenerateKey(rand.Reader)
	ca, _ := gossh.NewSignerFromKey(caPriv)
	caLine := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ca.PublicKey())))
	f := startServer(t)
	f.writeKeys(t, f.keysWithout(t)+fmt.Sprintf("\n%s,%s=\"alice\",%s=\"sim\" %s firm-ca\n", CertAuthorityOption, PrincipalsOption, ProfileOption, caLine))
	user := newKeyFile(t)
	now := time.Now()
	// whole seconds: certificates carry validity in seconds
	c := certFor(t, ca, user.signer, "alice@firm", []string{"alice"}, now.Add(-time.Hour), now.Add(3*time.Second), nil)
	tm := f.open(certSigner(t, c, user.signer), nil)
	tm.waitFor("1/12")
	if code := tm.exit(); code != 1 {
		t.Fatalf("the session of an expired certificate exited %d", code)
	}
	if !strings.Contains(tm.text(), "your certificate expired") {
		t.Fatalf("the session was not told why: %q", tm.text())
	}
	if late := time.Since(time.Unix(int64(c.ValidBefore), 0)); late > 2*keysPoll+time.Second {
		t.Fatalf("closed %s after the certificate expired", late)
	}
}
