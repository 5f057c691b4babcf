package serve

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/account"
)

// CI hung five minutes in a serve test's clean-up: Serve had been told to
// stop before the SSH library's own Serve had taken its listener, so the
// library's Shutdown closed no listener and its Serve sat in Accept for
// good, and our Serve waited for it. Serve closes the listener it made
// itself; stopping at once returns, however the goroutines fall.
func TestServeStoppedAtOnceReturns(t *testing.T) {
	home := t.TempDir()
	keys := filepath.Join(home, "authorized_keys")
	_, line := newKey(t)
	if err := os.WriteFile(keys, []byte(line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"VAULTDECK_HOME": home}
	for i := range 30 {
		s, err := New(Config{
			Listen: "127.0.0.1:0", AuthorizedKeys: keys, Flags: account.Flags{BaseURL: "http://127.0.0.1:9"},
			Getenv: func(k string) string { return env[k] },
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Ready:  func(net.Addr) {},
		}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		s.closeGrace = 0
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // stopped before it started
		done := make(chan error, 1)
		go func() { done <- s.Serve(ctx) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("start %d: Serve: %v", i, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("start %d: Serve, stopped before it started, had not returned after 10 s", i)
		}
		s.Close()
	}
}
