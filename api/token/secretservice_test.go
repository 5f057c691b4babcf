package token

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"
)

// busConfig is a private session bus with no service directories, so nothing
// can be auto-activated: a lookup that races the daemon's start cannot launch
// a second gnome-keyring against the real user's keyring files.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=SOCKET</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// secretService starts a throwaway D-Bus session bus and an unlocked
// gnome-keyring-daemon on it, points this process (and so go-keyring) at it,
// and kills both when the test ends. It skips when the tools are missing,
// except under CI=true, where their absence is a broken CI image.
func secretService(t *testing.T) (stopKeyring func()) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the Secret Service test runs on Linux")
	}
	for _, tool := range []string{"dbus-daemon", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; CI must install gnome-keyring, dbus-x11 and libsecret-tools", tool)
			}
			t.Skipf("%s is not installed (apt-get install gnome-keyring dbus-x11 libsecret-tools)", tool)
		}
	}
	dir := t.TempDir()
	socket := filepath.Join(dir, "bus")
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, []byte(strings.Replace(busConfig, "SOCKET", socket, 1)), 0o600); err != nil {
		t.Fatal(err)
	}

	// --fork: the parent exits once the bus listens, after printing the
	// address and pid. Its output goes to a file, not a pipe, because the
	// forked daemon would keep a pipe open and Wait would never return.
	outPath := filepath.Join(dir, "dbus.out")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	bus := exec.Command("dbus-daemon", "--config-file="+conf, "--fork", "--print-address=1", "--print-pid=1")
	bus.Stdout, bus.Stderr = out, os.Stderr
	err = bus.Run()
	out.Close()
	if err != nil {
		t.Fatalf("dbus-daemon did not start: %v", err)
	}
	printed, _ := os.ReadFile(outPath)
	lines := strings.Fields(string(printed))
	if len(lines) < 2 {
		t.Fatalf("dbus-daemon printed %q, want an address and a pid", printed)
	}
	addr := lines[0]
	busPID, err := strconv.Atoi(lines[1])
	if err != nil {
		t.Fatalf("dbus-daemon pid %q: %v", lines[1], err)
	}
	t.Cleanup(func() { syscall.Kill(busPID, syscall.SIGTERM) })
	// go-keyring (through godbus) reads the bus address from the process
	// environment; t.Setenv restores it afterwards. godbus caches its first
	// session-bus connection for the whole process, so no other test in this
	// package may reach the real keyring (they all use fakes).
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)

	for _, d := range []string{"home", "data", "run"} {
		os.Mkdir(filepath.Join(dir, d), 0o700)
	}
	gk := exec.Command("gnome-keyring-daemon", "--foreground", "--unlock", "--components=secrets")
	gk.Env = append(os.Environ(),
		"HOME="+filepath.Join(dir, "home"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"),
		"DISPLAY=",
	)
	// --unlock reads the login keyring's password from stdin; the keyring is
	// created with it on first use.
	gk.Stdin = strings.NewReader("throwaway-test-password")
	var gkOut bytes.Buffer
	gk.Stdout, gk.Stderr = &gkOut, &gkOut
	if err := gk.Start(); err != nil {
		t.Fatalf("gnome-keyring-daemon did not start: %v", err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			gk.Process.Kill()
			gk.Wait()
		}
	}
	t.Cleanup(stop)

	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatalf("cannot connect to the private bus: %v", err)
	}
	defer conn.Close()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var has bool
		err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, "org.freedesktop.secrets").Store(&has)
		if err == nil && has {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("gnome-keyring-daemon never offered org.freedesktop.secrets (err %v); its output:\n%s", err, gkOut.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return stop
}

func secretToolLookup(t *testing.T, profile string) (string, bool) {
	t.Helper()
	if _, err := exec.LookPath("secret-tool"); err != nil {
		return "", false
	}
	out, err := exec.Command("secret-tool", "lookup", "service", Service, "username", profile).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", true // secret-tool exits 1 when nothing matches
		}
		t.Fatalf("secret-tool: %v", err)
	}
	return string(out), true
}

func TestSecretServiceIntegration(t *testing.T) {
	stopKeyring := secretService(t)
	ctx := context.Background()
	const profile = "vaultdeck-it"

	// Straight through go-keyring: the attributes are "service" and "username".
	if err := keyring.Set(Service, profile, "direct-"+secret); err != nil {
		t.Fatalf("go-keyring Set: %v", err)
	}
	if got, err := keyring.Get(Service, profile); err != nil || got != "direct-"+secret {
		t.Fatalf("go-keyring Get = %q, %v", got, err)
	}
	if got, ok := secretToolLookup(t, profile); ok && got != "direct-"+secret {
		t.Fatalf("secret-tool sees %q", got)
	}
	if err := keyring.Delete(Service, profile); err != nil {
		t.Fatalf("go-keyring Delete: %v", err)
	}
	if _, err := System().Get(Service, profile); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after Delete, System().Get = %v, want ErrNotFound", err)
	}

	// Through the Source chain with the real keyring.
	dir := t.TempDir()
	src, err := New(Options{Profile: profile, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := src.Save(ctx, KindKeyring, secret); err != nil || r.Source != KindKeyring {
		t.Fatalf("Save = %v, %v", r, err)
	}
	if got, ok := secretToolLookup(t, profile); ok && got != secret {
		t.Fatalf("secret-tool sees %q after Save", got)
	}
	fresh, _ := New(Options{Profile: profile, Dir: dir})
	if r, err := fresh.Resolve(ctx); err != nil || r.Token != secret || r.Source != KindKeyring {
		t.Fatalf("fresh Resolve = %v, %v", r, err)
	}
	if rm, err := fresh.Remove(ctx); err != nil || !rm.Keyring || rm.KeyringErr != nil {
		t.Fatalf("Remove = %+v, %v", rm, err)
	}
	if got, ok := secretToolLookup(t, profile); ok && got != "" {
		t.Fatalf("secret-tool still finds %q after Remove", got)
	}
	gone, _ := New(Options{Profile: profile, Dir: dir})
	_, err = gone.Token(ctx)
	var nt *NoTokenError
	if !errors.As(err, &nt) || nt.Keyring != nil {
		t.Fatalf("after Remove: %v, want NoTokenError with no keyring failure", err)
	}

	// With the keyring daemon gone, the message names the ways out, promptly.
	stopKeyring()
	down, _ := New(Options{Profile: profile, Dir: dir})
	start := time.Now()
	_, err = down.Token(ctx)
	if !errors.As(err, &nt) || nt.Keyring == nil || !strings.Contains(err.Error(), "--insecure-storage") {
		t.Fatalf("with no keyring daemon: %v", err)
	}
	if took := time.Since(start); took > DefaultTimeout+time.Second {
		t.Fatalf("took %v", took)
	}
}
