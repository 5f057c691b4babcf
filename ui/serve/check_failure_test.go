package serve

import (
	"bytes"
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// TestCheckNamesTheFailure: `serve --check` said a bound profile's token
// 'was not accepted' whatever whoami met; seen by hand with the profile's
// service stopped: 'FAIL profile s: the token from a plain-text file was
// not accepted: could not reach the service ...'. As the login screen
// does (api.CheckFailure), it names the failure: only a 401 or 403 is the
// token's.
func TestCheckNamesTheFailure(t *testing.T) {
	f := startServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	st, err := store.Open(filepath.Join(f.home, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveProfile(store.Profile{Name: "sim", BaseURL: dead}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	s, err := New(Config{AuthorizedKeys: f.srv.cfg.AuthorizedKeys, Getenv: f.srv.cfg.Getenv}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out bytes.Buffer
	if code := s.Check(context.Background(), &out); code != 1 {
		t.Fatalf("check passed:\n%s", out.String())
	}
	if got := out.String(); strings.Contains(got, "not accepted") || !strings.Contains(got, "The service could not be reached, so the token was not checked") {
		t.Errorf("a service out of reach reads:\n%s", got)
	}
}
