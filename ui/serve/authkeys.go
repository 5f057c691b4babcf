package serve

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/store"
)

// ProfileOption binds a key to a stored profile in the authorized-keys
// file's options field: vaultdeck-profile="eu-prod" ssh-ed25519 AAAA… alice.
const ProfileOption = "vaultdeck-profile"

// WritesOption grants a key the keys that change the workspace (delete,
// restore, upload, access changes), under serve's --allow-writes, which is
// the ceiling: vaultdeck-writes,vaultdeck-profile="eu-prod" ssh-ed25519 …
// A key without it is read-only whatever the server allows.
const WritesOption = "vaultdeck-writes"

// Key is one accepted line of the authorized-keys file.
type Key struct {
	Line        int
	Comment     string
	Fingerprint string // SHA256:…, as ssh-keygen -l prints it
	Profile     string // bound profile; "" = the session logs in itself
	Writes      bool   // WritesOption: may change the workspace, if the server allows writes
	// CA: the line is a certificate authority's (cert-authority), with the
	// principals its certificates may log in as (certs.go).
	CA         bool
	Principals []string
	// Principal and KeyID name a certificate's holder (certs.go): set on
	// the login's own copy of its CA's line, empty for a plain key.
	Principal, KeyID string
	Expires          time.Time // a certificate's valid-before (zero: none); the session ends then
	key              gossh.PublicKey
}

// Label is how the header names the key: its comment when it has one, and
// the start of its fingerprint (the log line has all of it), short enough
// to leave room in the header for the budget and the read-only badge.
func (k *Key) Label() string {
	fp := k.Fingerprint
	if len(fp) > 16 {
		fp = fp[:16] + "…"
	}
	if k.Principal != "" {
		return k.Principal + " (certificate) " + fp
	}
	if k.Comment == "" {
		return fp
	}
	return k.Comment + " " + fp
}

// Keys are the accepted keys and what was wrong with the other lines.
type Keys struct {
	byBlob   map[string]*Key // plain keys only: a CA's key does not log in
	caByBlob map[string]*Key
	List     []*Key
	Problems []string // "line 3: …", one per skipped line
}

// Lookup finds the line of a presented key (nil: not authorized).
func (ks *Keys) Lookup(k gossh.PublicKey) *Key {
	if ks == nil || k == nil {
		return nil
	}
	return ks.byBlob[string(k.Marshal())]
}

// line is the line of key k, a plain key's or a CA's (nil: none).
func (ks *Keys) line(k gossh.PublicKey) *Key {
	if ks == nil || k == nil {
		return nil
	}
	b := string(k.Marshal())
	if l := ks.byBlob[b]; l != nil {
		return l
	}
	return ks.caByBlob[b]
}

// Profiles lists the bound profiles, each once.
func (ks *Keys) Profiles() []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range ks.List {
		if k.Profile != "" && !seen[k.Profile] {
			seen[k.Profile] = true
			out = append(out, k.Profile)
		}
	}
	return out
}

// harmless options restrict what OpenSSH would allow, and this server
// allows none of it anyway (no forwarding, no agent, no X11, no rc file).
// Any other option would restrict something this server does not enforce
// (from=, command=, expiry-time=, no-pty, cert-authority…), so its line is
// skipped: accepting the key without the restriction would widen access.
var harmless = map[string]bool{
	"restrict": true, "no-port-forwarding": true, "no-agent-forwarding": true,
	"no-x11-forwarding": true, "no-user-rc": true,
}

// LoadKeys reads an authorized-keys file in OpenSSH format. A malformed
// line is reported by its number and skipped; the other keys still work.
// Only a file that cannot be read, or one with no usable key, is an error.
func LoadKeys(path string) (*Keys, error) {
	if path == "" {
		return nil, fmt.Errorf("--authorized-keys is required: serve admits only the public keys listed in that file")
	}
	b, err := localfile.Read(path, localfile.AuthorizedKeys)
	if err != nil {
		return nil, fmt.Errorf("reading the authorized keys: %w", err)
	}
	ks := ParseKeys(b)
	if len(ks.List) == 0 {
		return ks, fmt.Errorf("%s holds no usable public key", path)
	}
	return ks, nil
}

// ParseKeys parses authorized-keys content.
func ParseKeys(b []byte) *Keys {
	ks := &Keys{byBlob: map[string]*Key{}, caByBlob: map[string]*Key{}}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, err := parseLine(line)
		if err != nil {
			ks.Problems = append(ks.Problems, fmt.Sprintf("line %d: %v (skipped)", n, err))
			continue
		}
		k.Line = n
		blob := string(k.key.Marshal())
		if prev := ks.line(k.key); prev != nil {
			ks.Problems = append(ks.Problems, fmt.Sprintf("line %d: the same key as line %d (skipped)", n, prev.Line))
			continue
		}
		if k.CA {
			ks.caByBlob[blob] = k
		} else {
			ks.byBlob[blob] = k
		}
		ks.List = append(ks.List, k)
	}
	if err := sc.Err(); err != nil {
		ks.Problems = append(ks.Problems, fmt.Sprintf("reading stopped: %v", err))
	}
	return ks
}

func parseLine(line string) (*Key, error) {
	pub, comment, opts, rest, err := gossh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return nil, fmt.Errorf("not a public key in OpenSSH format")
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, fmt.Errorf("unexpected text after the key")
	}
	if _, ok := pub.(*gossh.Certificate); ok {
		return nil, fmt.Errorf("certificates are not accepted")
	}
	k := &Key{Comment: comment, Fingerprint: gossh.FingerprintSHA256(pub), key: pub}
	for _, o := range opts {
		name, val, hasVal := strings.Cut(o, "=")
		switch {
		case strings.EqualFold(name, ProfileOption):
			p, err := unquote(val, hasVal)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", ProfileOption, err)
			}
			if err := store.ValidateProfileName(p); err != nil {
				return nil, fmt.Errorf("%s: %v", ProfileOption, err)
			}
			if k.Profile != "" && k.Profile != p {
				return nil, fmt.Errorf("two different %s options", ProfileOption)
			}
			k.Profile = p
		case strings.EqualFold(name, WritesOption) && !hasVal:
			k.Writes = true
		case strings.EqualFold(name, CertAuthorityOption) && !hasVal:
			k.CA = true
		case strings.EqualFold(name, PrincipalsOption):
			if !hasVal || len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' {
				return nil, fmt.Errorf(`%s takes a quoted list, e.g. %s="alice,bob"`, PrincipalsOption, PrincipalsOption)
			}
			for _, p := range strings.Split(val[1:len(val)-1], ",") {
				if p = strings.TrimSpace(p); p != "" {
					k.Principals = append(k.Principals, p)
				}
			}
			if len(k.Principals) == 0 {
				return nil, fmt.Errorf("%s lists no principal", PrincipalsOption)
			}
		case harmless[strings.ToLower(name)] && !hasVal:
		default:
			return nil, fmt.Errorf("option %q is not supported by vaultdeck serve", name)
		}
	}
	if len(k.Principals) > 0 && !k.CA {
		return nil, fmt.Errorf("%s is for %s lines only", PrincipalsOption, CertAuthorityOption)
	}
	return k, nil
}

func unquote(v string, hasVal bool) (string, error) {
	if !hasVal || len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", fmt.Errorf(`takes a quoted value, e.g. %s="eu-prod"`, ProfileOption)
	}
	v = v[1 : len(v)-1]
	if v == "" || strings.ContainsAny(v, `"\`) {
		return "", fmt.Errorf("the profile name %q cannot be used", v)
	}
	return v, nil
}
