package serve

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// echoTransport plays a server that echoes the request's token inside the
// data: every project name gets it appended, JSON-escaped in one place and
// URL-escaped in another, or (every) with each of its characters written
// as a \u escape, which a decoder turns back into the token.
type echoTransport struct {
	rt    http.RoundTripper
	every bool
}

func (e echoTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := e.rt.RoundTrip(r)
	if err != nil || resp.StatusCode != 200 {
		return resp, err
	}
	tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	echo := strings.ReplaceAll(tok, "/", `\/`) + ` ` + url.QueryEscape(tok)
	if e.every {
		echo = faultserver.JSONEscapeEvery(tok)
	}
	body = bytes.ReplaceAll(body, []byte(`"name":"`), []byte(`"name":"`+echo+` `))
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return resp, nil
}

// TestTokenInDataNotShownOverSSH: a bound profile's token, echoed by the
// server inside project names, is not shown to the SSH user who opened the
// view, and is in no file of the serve store (database, WAL).
func TestTokenInDataNotShownOverSSH(t *testing.T) {
	for _, every := range []bool{false, true} {
		t.Run(map[bool]string{false: "escaped as sent", true: "every character escaped"}[every], func(t *testing.T) {
			testTokenInDataOverSSH(t, every)
		})
	}
}

func testTokenInDataOverSSH(t *testing.T, every bool) {
	f := startServer(t, func(c *Config) {
		c.HTTPClient = &http.Client{Transport: echoTransport{http.DefaultTransport, every}}
	})
	tok := f.sim.Token("admin")
	esc := faultserver.JSONEscapeEvery(tok)
	tm := f.open(f.bound, nil)
	tm.waitFor("Projects · 12 of 12 loaded")
	tm.waitFor("[REDACTED]")
	if strings.Contains(tm.out.String(), tok) || strings.Contains(tm.out.String(), url.QueryEscape(tok)) {
		t.Fatalf("the token reached the SSH user's screen:\n%s", tm.text())
	}
	// The cache write runs in a command after the answer: wait until the
	// redacted body is on disk, then look for the token in every file.
	waitUntil(t, "the cache row on disk", func() bool { return filesHold(f.home, "[REDACTED]") }, tm.text)
	if filesHold(f.home, tok) || filesHold(f.home, url.QueryEscape(tok)) || filesHold(f.home, esc) {
		t.Errorf("the token is in a file of the serve store")
	}
	tm.send("q")
	tm.exit()
	_ = f.stop()
	if filesHold(f.home, tok) || filesHold(f.home, url.QueryEscape(tok)) || filesHold(f.home, esc) {
		t.Errorf("the token is in a file of the serve store after shutdown")
	}
}

// filesHold reports whether a file under dir holds s (the credential file,
// which holds the token by design, excepted).
func filesHold(dir, s string) bool {
	found := false
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) == "creds" {
			return nil
		}
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(s)) {
			found = true
		}
		return nil
	})
	return found
}

// toServer sends every request to another server (the fault server), as a
// misconfigured gateway in front of the service would.
type toServer struct{ host string }

func (t toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Host = t.host
	return http.DefaultTransport.RoundTrip(r)
}

// TestHugeStringOverSSH: inside a serve session, a project name that is
// one 2 GiB string stops at the same limit as the headless commands: the
// view shows the error naming the limit, and the server got to send only a
// few MB of it.
func TestHugeStringOverSSH(t *testing.T) {
	fs := faultserver.Start(faultserver.HugeString)
	defer fs.Close()
	u, _ := url.Parse(fs.URL)
	f := startServer(t, func(c *Config) { c.HTTPClient = &http.Client{Transport: toServer{u.Host}} })
	tm := f.open(f.bound, nil)
	tm.waitFor("1 MiB limit")
	if sent := fs.Sent(); sent > 64<<20 {
		t.Errorf("the server got to send %d MB", sent>>20)
	}
	tm.send("q")
	tm.exit()
}
