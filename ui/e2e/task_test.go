package e2e

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/sim"
)

// heldDeletes serves the simulator, holding every DELETE until release is
// closed: the deletion is in flight for as long as the test wants.
func heldDeletes(t *testing.T) (baseURL, tok string, release chan struct{}) {
	t.Helper()
	srv := sim.New(sim.Options{Seed: sim.DefaultSeed})
	release = make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			<-release
		}
		srv.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: h}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	return "http://" + ln.Addr().String(), srv.Token("admin"), release
}

// TestEscDuringDeletionKeepsOutcome: confirm a deletion, press esc while
// the DELETE is in flight, and still see its outcome in the status line.
func TestEscDuringDeletionKeepsOutcome(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	base, tok, release := heldDeletes(t)
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	s := startTmux(t, []string{"VAULTDECK_HOME=" + t.TempDir(), "VAULTDECK_TOKEN=" + tok, "TERM=xterm-256color"},
		"sh", "-c", bin+` --base-url `+base+`; echo "EXITED $?"; sleep 600`)
	sc := s.waitForText("Projects ·")
	// The header names the endpoint actually used: the loopback host, and
	// no profile (none is in use: the token comes from the environment).
	header := strings.SplitN(sc, "\n", 2)[0]
	if host := strings.TrimPrefix(base, "http://"); !strings.Contains(header, host) ||
		strings.Contains(header, "region") || strings.Contains(header, "default") {
		t.Errorf("header does not name %s alone:\n%s", host, header)
	}
	s.literal("/Bellhaven")
	s.keys("Enter")
	s.waitForText(`name contains "Bellhaven"`)
	s.keys("Enter")
	s.waitForText("Users")
	s.literal("D")
	s.waitForText("Delete project")
	s.literal("Bellhaven Shipping — Share Purchase")
	s.keys("Enter")
	s.waitForText("delete project Bellhaven")
	s.keys("Escape")
	s.waitFor("the projects list", func(sc string) bool { return strings.Contains(sc, "Projects ·") })
	close(release)
	sc = s.waitForText("will appear in the recycle bin within seconds")
	if !strings.Contains(sc, "Project deletion is in progress") {
		t.Errorf("outcome:\n%s", sc)
	}
	s.keys("q")
	s.waitForText("EXITED 0")
}
