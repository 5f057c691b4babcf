package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// simProcess is `vaultdeck sim` running as its own process, as a user runs it.
type simProcess struct {
	base, caFile string
	tokens       map[string]string
}

func startSim(t testing.TB, bin string, args ...string) simProcess {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"sim", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = childEnv(t, nil, "VAULTDECK_HOME="+t.TempDir())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	sp := simProcess{tokens: map[string]string{}}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 2 && f[0] == "base_url":
			sp.base = f[1]
		case len(f) >= 2 && f[0] == "ca_file":
			sp.caFile = f[1]
		case len(f) >= 3 && f[0] == "token":
			sp.tokens[f[1]] = f[2]
		}
		if len(sp.tokens) == 4 {
			break
		}
	}
	if sp.base == "" || sp.tokens["admin"] == "" {
		t.Fatalf("sim printed no base_url or tokens (%v)", sc.Err())
	}
	go func() { _, _ = io.Copy(io.Discard, out) }() // keep the pipe drained
	return sp
}

// vd runs one vaultdeck command and returns stdout, stderr and the exit code.
func vd(t *testing.T, bin string, env []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = childEnv(t, nil, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// TestHeadlessOverTLS runs every headless command against `vaultdeck sim
// --tls`, trusting its certificate only through --ca-file.
func TestHeadlessOverTLS(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	sp := startSim(t, bin, "--tls")
	if sp.caFile == "" || !strings.HasPrefix(sp.base, "https://") {
		t.Fatalf("--tls gave base %q, ca_file %q", sp.base, sp.caFile)
	}
	tok := sp.tokens["admin"]
	env := []string{"VAULTDECK_TOKEN=" + tok, "VAULTDECK_HOME=" + t.TempDir()}
	g := []string{"--base-url", sp.base, "--ca-file", sp.caFile}

	// Without the CA the certificate must be refused: TLS is always verified.
	if _, stderr, code := vd(t, bin, env, "", "whoami", "--base-url", sp.base); code != 1 || !strings.Contains(stderr, "certificate") {
		t.Errorf("unverified TLS accepted? code %d, stderr %s", code, stderr)
	}

	out, stderr, code := vd(t, bin, env, "", append([]string{"projects", "--json"}, g...)...)
	if code != 0 {
		t.Fatalf("projects: %d %s", code, stderr)
	}
	var projects []struct {
		ID, Name string
	}
	if err := json.Unmarshal([]byte(out), &projects); err != nil || len(projects) < 10 {
		t.Fatalf("projects --json: %v, %d projects", err, len(projects))
	}
	pid := projects[0].ID

	files, stderr, code := vd(t, bin, env, "", append([]string{"files", pid, "--json"}, g...)...)
	if code != 0 {
		t.Fatalf("files: %d %s", code, stderr)
	}
	var fileList []struct{ ID string }
	if err := json.Unmarshal([]byte(files), &fileList); err != nil || len(fileList) == 0 {
		t.Fatalf("files --json: %v %q", err, files[:min(len(files), 200)])
	}

	// status reads IDs one per line from stdin, with a BOM and CRLF endings;
	// an unknown ID makes the exit status 3 (succeeded, some items failed).
	stdin := "\ufeff" + fileList[0].ID + "\r\n\r\n00000000-0000-4000-8000-000000000000\r\n"
	out, stderr, code = vd(t, bin, env, stdin, append([]string{"status", "-"}, g...)...)
	if code != 3 || !strings.Contains(out, "not_found") {
		t.Errorf("status -: code %d, out %s, stderr %s", code, out, stderr)
	}

	for _, args := range [][]string{
		{"users", pid}, {"recycle-bin"}, {"recycle-bin", "--name", "IPO"}, {"audit", "--limit", "5"},
		{"audit", "--type", "auth:login", "--limit", "3"}, {"whoami"}, {"files", pid, "--status", "processing"},
	} {
		out, stderr, code := vd(t, bin, env, "", append(args, g...)...)
		if code != 0 || strings.TrimSpace(out) == "" {
			t.Errorf("%v: code %d, stderr %s", args, code, stderr)
		}
		if strings.Contains(out+stderr, tok) {
			t.Errorf("%v: token printed", args)
		}
		if strings.ContainsRune(out, 0x1b) {
			t.Errorf("%v: escape sequence reached the terminal", args)
		}
	}

	// A token without the audit permission gets a 403 naming what it lacks.
	env2 := []string{"VAULTDECK_TOKEN=" + sp.tokens["no-audit"], "VAULTDECK_HOME=" + t.TempDir()}
	if _, stderr, code := vd(t, bin, env2, "", append([]string{"audit"}, g...)...); code != 1 || !strings.Contains(stderr, "Territory admin") {
		t.Errorf("audit without permission: code %d, stderr %s", code, stderr)
	}
}

// TestLoginWithSecretService stores the token through `vaultdeck login` in a
// real Secret Service (gnome-keyring on a private D-Bus session), then uses
// it for whoami and a headless command, with no VAULTDECK_TOKEN anywhere.
func TestLoginWithSecretService(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s missing; .ci/run installs gnome-keyring and dbus-x11", tool)
			}
			t.Skip(tool + " not installed")
		}
	}
	bin := buildBinary(t)
	sp := startSim(t, bin)
	home := t.TempDir()
	xdg := t.TempDir()
	script := `set -e
echo throwaway-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null
printf '%s\n' "$SIM_TOKEN" | "$VD" login --profile sim --base-url "$SIM_BASE"
unset SIM_TOKEN
"$VD" profiles
"$VD" whoami
"$VD" recycle-bin --name IPO
`
	cmd := exec.Command("dbus-run-session", "--", "sh", "-c", script)
	cmd.Env = childEnv(t, []string{"VAULTDECK_TOKEN", "DBUS_SESSION_BUS_ADDRESS"},
		"VD="+bin, "SIM_TOKEN="+sp.tokens["admin"], "SIM_BASE="+sp.base,
		"VAULTDECK_HOME="+home, "HOME="+xdg, "XDG_DATA_HOME="+filepath.Join(xdg, "data"),
		"XDG_RUNTIME_DIR="+xdg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("login/whoami session failed: %v\n%s", err, out)
	}
	text := string(out)
	t.Logf("session:\n%s", text)
	if !strings.Contains(text, "keyring") {
		t.Errorf("login did not report keyring storage:\n%s", text)
	}
	if !strings.Contains(text, "Harrowgate LLP") || !strings.Contains(text, "IPO") {
		t.Errorf("whoami/recycle-bin output missing:\n%s", text)
	}
	if strings.Contains(text, sp.tokens["admin"]) {
		t.Error("token printed")
	}
	// Nothing under the vaultdeck home may hold the token in plain text.
	_ = filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(sp.tokens["admin"])) {
				t.Errorf("token found in %s", p)
			}
		}
		return nil
	})
}
