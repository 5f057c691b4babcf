package cli

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
)

// TestServeCheckAliveIsAProbe: `serve --check --alive --listen ADDR`
// answers as a monitoring probe from the running serve's SSH
// identification line, without the keys file or a token: OK (exit 0)
// when an SSH server answers, WARNING (3) when nothing does; --alive
// alone is a usage error.
func TestServeCheckAliveIsAProbe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("SSH-2.0-Go\r\n"))
			c.Close()
		}
	}()
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		code := Main(context.Background(), args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
		return run{code, out.String(), errb.String()}
	}
	if r := vd("serve", "--check", "--alive", "--listen", ln.Addr().String()); r.code != 0 || !strings.HasPrefix(r.stdout, "SERVE OK - SSH-2.0-Go on ") {
		t.Errorf("a serve answering: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := closed.Addr().String()
	closed.Close()
	if r := vd("serve", "--check", "--alive", "--listen", addr); r.code != 3 || !strings.HasPrefix(r.stdout, "SERVE WARNING - no SSH server answers") {
		t.Errorf("nothing listening: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("serve", "--metrics", "0.0.0.0:9464", "--authorized-keys", "/nonexistent"); r.code != 2 || !strings.Contains(r.stderr, "loopback") {
		t.Errorf("serve --metrics on every address: exit %d %q", r.code, r.stderr)
	}
	if r := vd("serve", "--alive"); r.code != 2 || !strings.Contains(r.stderr, "--check") {
		t.Errorf("--alive alone: exit %d %q", r.code, r.stderr)
	}
}
