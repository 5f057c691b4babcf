package serve

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// --debug-file: created 0600, appended to (an earlier run's lines kept),
// never through a symlink, and nothing reaches it unredacted: a line
// written before the server set its redactor is dropped, a token after it
// is replaced.
func TestDebugFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "debug.log")
	logOnce := func(msg string, redact func(string) string) {
		t.Helper()
		l, _, sink, err := openDebug(Debug{File: path}, func(string) string { return "" }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		l.Debug("before the redactor", "path", "/api/whoami?secret-before")
		sink.SetRedact(redact)
		l.Debug(msg, "path", "/api/v1/vault/workspace/projects", "auth", "tok-123")
		sink.Close()
	}
	hide := func(s string) string { return strings.ReplaceAll(s, "tok-123", "[token]") }
	logOnce("first", hide)
	logOnce("second", hide)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if !strings.Contains(got, "msg=first") || !strings.Contains(got, "msg=second") || strings.Index(got, "msg=first") > strings.Index(got, "msg=second") {
		t.Errorf("want the first run's line, then the second's:\n%s", got)
	}
	if strings.Contains(got, "tok-123") || strings.Contains(got, "secret-before") || !strings.Contains(got, "auth=[token]") {
		t.Errorf("an unredacted line reached the file:\n%s", got)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("the file's mode is %v (%v), want 0600", fi.Mode().Perm(), err)
		}
		target := filepath.Join(dir, "elsewhere")
		if err := os.WriteFile(target, []byte("kept\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "link.log")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := openDebug(Debug{File: link}, func(string) string { return "" }, io.Discard); err == nil {
			t.Error("the debug log was opened through a symlink")
		}
		if b, _ := os.ReadFile(target); string(b) != "kept\n" {
			t.Errorf("the symlink's target was written: %q", b)
		}
	}
}

// TestServeReadsVaultdeckDebugAsEveryCommand: VAULTDECK_DEBUG means for
// serve what it means for every command (ui/cli/debuglog): a value that is
// none of 1, api, off and their like is refused by name (serve took any
// value as on, silently), and api adds the headers, credentials withheld.
func TestServeReadsVaultdeckDebugAsEveryCommand(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "VAULTDECK_DEBUG" {
				return v
			}
			return ""
		}
	}
	if _, _, _, err := openDebug(Debug{}, env("bogus"), io.Discard); err == nil || !strings.Contains(err.Error(), `VAULTDECK_DEBUG="bogus"`) {
		t.Errorf("VAULTDECK_DEBUG=bogus: %v, want it refused by name", err)
	}
	for v, want := range map[string]bool{"": false, "off": false, "1": true, "api": true} {
		l, _, _, err := openDebug(Debug{}, env(v), io.Discard)
		if err != nil || (l != nil) != want {
			t.Errorf("VAULTDECK_DEBUG=%q: logger %v, err %v; want on=%v", v, l != nil, err, want)
		}
	}
	if _, lvl, _, _ := openDebug(Debug{}, env("api"), io.Discard); !lvl.Headers {
		t.Error("VAULTDECK_DEBUG=api: no headers")
	}
}
