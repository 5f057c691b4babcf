package cli

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// fullStdout is a stdout on a full disk: every write fails.
type fullStdout struct{}

func (fullStdout) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestOutputOutsideTheListingsIsChecked: what cobra prints itself (help,
// --help) and what the account commands print to their Env is the
// printer's stdout too, so a full disk is exit 1 with one line, not exit 0
// with the output lost.
func TestOutputOutsideTheListingsIsChecked(t *testing.T) {
	keyring.MockInit()
	home := t.TempDir()
	getenv := func(k string) string { return map[string]string{"VAULTDECK_HOME": home}[k] }
	for _, args := range [][]string{{"help"}, {"help", "projects"}, {"projects", "--help"}, {"-h"}, {"profiles"}} {
		var errb bytes.Buffer
		env := Std(strings.NewReader(""), fullStdout{}, &errb, getenv)
		env.Console, env.Demo, env.Sim, env.Serve = nil, nil, nil, nil
		code := Main(context.Background(), args, env)
		if code == 0 || !strings.HasSuffix(errb.String(), "stdout failed: no space left on device: nothing was written\n") {
			t.Errorf("vaultdeck %s on a full stdout: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}

// TestSimWhoseAnnouncementIsLostStops: `vaultdeck sim` whose stdout
// refused its base_url and token lines serves nobody: it stops, exit 1,
// with the stdout line, rather than serve on unannounced.
func TestSimWhoseAnnouncementIsLostStops(t *testing.T) {
	var errb bytes.Buffer
	env := Std(strings.NewReader(""), fullStdout{}, &errb, func(string) string { return "" })
	env.Console, env.Demo, env.Serve = nil, nil, nil
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code := Main(ctx, []string{"sim", "--addr", "127.0.0.1:0"}, env)
	if ctx.Err() != nil || code != 1 || !strings.HasSuffix(errb.String(), "stdout failed: no space left on device: nothing was written\n") {
		t.Errorf("exit %d (ended by the test's deadline: %v), stderr %q", code, ctx.Err() != nil, errb.String())
	}
}
