package serve

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// TestAliveProvesTheRunningServeAnswers: `serve --check --alive` dials
// the serve's address and reads its SSH identification line, as a probe
// answers: OK (exit 0) with the time it took as perfdata from a running
// serve; WARNING (exit 3) where nothing listens or something that is not
// SSH answers.
func TestAliveProvesTheRunningServeAnswers(t *testing.T) {
	f := startServer(t)
	var out bytes.Buffer
	if code := Alive(context.Background(), f.addr, &out); code != 0 || !strings.HasPrefix(out.String(), "SERVE OK - SSH-2.0-") || !strings.Contains(out.String(), "| answer=") {
		t.Fatalf("a running serve: exit %d %q", code, out.String())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\n\r\n"))
			c.Close()
		}
	}()
	out.Reset()
	if code := Alive(context.Background(), ln.Addr().String(), &out); code != 3 || !strings.HasPrefix(out.String(), "SERVE WARNING - ") {
		t.Errorf("not SSH: exit %d %q", code, out.String())
	}
	addr := ln.Addr().String()
	ln.Close()
	out.Reset()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if code := Alive(ctx, addr, &out); code != 3 || !strings.HasPrefix(out.String(), "SERVE WARNING - ") {
		t.Errorf("nothing listening: exit %d %q", code, out.String())
	}
}
