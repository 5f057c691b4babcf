package sim

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Flags are `vaultdeck sim`'s options; Register defines them on the command
// line's flag set (the CLI's cobra command).
type Flags struct {
	Addr        string
	Seed        int64
	Scale       string
	TLS         bool
	NoRateLimit bool
	RecycleBin  int
	AuditN      int
	Burst       int
	Leaver      bool
	Control     bool
	StuckShare  float64
	ProcDelay   time.Duration
	Trickle     int
	Churn       int
}

// Register defines the flags on fs with their defaults.
func (f *Flags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&f.Addr, "addr", "127.0.0.1:8080", "listen `ADDR` (host:port; port 0 picks a free port)")
	fs.Int64Var(&f.Seed, "seed", DefaultSeed, "seed for the generated workspace, ids and token values")
	fs.StringVar(&f.Scale, "scale", string(ScaleSmall), "seed data size: `small|large` (large: 100,000 recycle-bin entries, files and audit entries)")
	fs.BoolVar(&f.TLS, "tls", false, "serve HTTPS with a self-signed certificate; prints ca_file <path>")
	fs.BoolVar(&f.NoRateLimit, "no-rate-limit", false, "disable the per-minute rate limits (for load tests)")
	fs.IntVar(&f.RecycleBin, "recycle-bin", 0, "seed this many recycle-bin entries instead of the scale's (load tests)")
	fs.IntVar(&f.AuditN, "audit-entries", 0, "seed this many audit entries instead of the scale's (load tests, benchmarks)")
	fs.IntVar(&f.Burst, "audit-burst", 0, "plant a burst of `N` project deletions from a new address (203.0.113.77) 10 hours before now in the seeded log, each project then in the recycle bin (tries of vaultdeck audit stats, :activity and :person)")
	fs.BoolVar(&f.Leaver, "leaver", false, "make the owner of \""+LeaverProjectName+"\" a person with every part of vaultdeck person (sole MANAGE, direct shares to remove, matters, deletions, a login from a new address), as the demo does; off by default so the seeded counts stay those the tests and benchmarks know")
	fs.BoolVar(&f.Control, "control", false, "enable the unauthenticated /_sim/ control endpoints")
	fs.Float64Var(&f.StuckShare, "stuck-share", 0.05, "share (0..1) of new uploads that never finish processing")
	fs.DurationVar(&f.ProcDelay, "processing-delay", 30*time.Second, "time a new upload spends processing")
	fs.IntVar(&f.Trickle, "audit-trickle", 0, "user audit entries added per minute of simulator time (0: none)")
	fs.IntVar(&f.Churn, "sharing-changes", 0, "sharing changes made at each simulated midnight (0: the scale's default, large 5; -1: none)")
}

// Serve checks f, serves the simulator until ctx is cancelled and returns
// the exit code.
func Serve(ctx context.Context, f Flags, stdout, stderr io.Writer) int {
	if f.Scale != string(ScaleSmall) && f.Scale != string(ScaleLarge) {
		fmt.Fprintf(stderr, "sim: --scale must be small or large, not %q\n", f.Scale)
		return 2
	}
	if f.Trickle < 0 {
		fmt.Fprintln(stderr, "sim: --audit-trickle must not be negative")
		return 2
	}
	if f.StuckShare < 0 || f.StuckShare > 1 {
		fmt.Fprintln(stderr, "sim: --stuck-share must be between 0 and 1")
		return 2
	}
	addr, seed, scale, useTLS, noLimit, control := &f.Addr, &f.Seed, &f.Scale, &f.TLS, &f.NoRateLimit, &f.Control
	recycle, auditN, stuckShare, procDelay, trickle, churn := &f.RecycleBin, &f.AuditN, &f.StuckShare, &f.ProcDelay, &f.Trickle, &f.Churn

	srv := New(Options{Seed: *seed, Scale: Scale(*scale), NoRateLimit: *noLimit, Control: *control,
		RecycleBin: *recycle, AuditEntries: *auditN, StuckShare: *stuckShare, ProcessingDelay: *procDelay,
		AuditTrickle: *trickle, SharingChanges: *churn, AuditBurst: AuditBurst{Count: f.Burst}, Leaver: f.Leaver})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "sim: %v\n", err)
		return 1
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(stderr, "sim: warning: listening on non-loopback %s; the tokens printed below grant full access\n", ln.Addr())
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	scheme := "http"
	var caFile string
	if *useTLS {
		cert, path, err := selfSigned()
		if err != nil {
			ln.Close()
			fmt.Fprintf(stderr, "sim: certificate: %v\n", err)
			return 1
		}
		caFile = path
		defer os.Remove(path)
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		scheme = "https"
	}

	var b strings.Builder
	fmt.Fprintf(&b, "base_url %s://%s\n", scheme, ln.Addr())
	if caFile != "" {
		fmt.Fprintf(&b, "ca_file %s\n", caFile)
	}
	for _, t := range srv.Tokens() {
		fmt.Fprintf(&b, "token %s %s %s\n", t.Name, t.Value, strings.Join(t.Permissions, ","))
	}
	io.WriteString(stdout, b.String())
	flush(stdout)

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "sim: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
	}
	return 0
}

// flush pushes buffered output out so that a script reading the lines can
// start before the server stops.
func flush(w io.Writer) {
	switch f := w.(type) {
	case interface{ Flush() error }:
		_ = f.Flush()
	case interface{ Sync() error }:
		_ = f.Sync()
	}
}

// selfSigned makes an ECDSA P-256 certificate for 127.0.0.1, ::1 and
// localhost that is its own CA, and writes it as PEM to a temp file that
// clients can trust (curl --cacert, vaultdeck --ca-file).
func selfSigned() (tls.Certificate, string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return tls.Certificate{}, "", err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "vaultdeck simulator", Organization: []string{"vaultdeck"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(30 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1"), net.IPv6loopback},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, "", err
	}
	f, err := os.CreateTemp("", "vaultdeck-sim-ca-*.pem")
	if err != nil {
		return tls.Certificate{}, "", err
	}
	defer f.Close()
	if err := pem.Encode(f, &pem.Block{Type: "CERTIFICATE", Bytes: der}); err != nil {
		return tls.Certificate{}, "", err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, f.Name(), nil
}
