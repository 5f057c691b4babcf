package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/store"
)

// TestConfigSetTakesFlagsAfterTheValue: `config set KEY VALUE --profile P`
// is how gh's `config set KEY VALUE --host H` is typed; it sets P's value
// (it was refused as four words: "give a KEY and a VALUE"). A value that
// begins with - is still a value to check, not a flag.
func TestConfigSetTakesFlagsAfterTheValue(t *testing.T) {
	vars := map[string]string{"VAULTDECK_HOME": t.TempDir()}
	st, getenv := homeStore(t, vars, store.Profile{Name: "a", BaseURL: "http://127.0.0.1:1"}, store.Profile{Name: "b", BaseURL: "http://127.0.0.1:1"})
	st.Close()
	vd := func(args ...string) run {
		var out, errb bytes.Buffer
		return run{Main(context.Background(), args, Std(strings.NewReader(""), &out, &errb, getenv)), out.String(), errb.String()}
	}
	if r := vd("config", "set", "excel", "true", "--profile", "b"); r.code != 0 {
		t.Fatalf("config set excel true --profile b: exit %d %q", r.code, r.stderr)
	}
	if r := vd("config", "get", "excel", "--profile", "b"); r.code != 0 || !strings.Contains(r.stdout, "true") {
		t.Errorf("b's excel: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("config", "get", "excel", "--profile", "a"); r.code != 0 || strings.Contains(r.stdout, "true") {
		t.Errorf("a's excel is untouched: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("config", "set", "--profile=a", "timeout", "40s"); r.code != 0 {
		t.Errorf("flags before the key still work: exit %d %q", r.code, r.stderr)
	}
	r := vd("config", "set", "timeout", "-1s", "--profile", "a")
	if r.code != 2 || strings.Contains(r.stderr, "unknown shorthand") || !strings.Contains(r.stderr, "timeout") {
		t.Errorf("a negative value is checked as a value: exit %d %q", r.code, r.stderr)
	}
	if r := vd("config", "set", "timeout", "50s", "--help"); r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
		t.Errorf("--help after the value: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := vd("config", "get", "timeout", "--profile", "a"); !strings.Contains(r.stdout, "40s") {
		t.Errorf("--help after the value set nothing: %q", r.stdout)
	}
	for _, args := range [][]string{
		{"config", "set", "excel", "true", "false"},
		{"config", "set", "excel", "true", "--no-such-flag"},
		{"config", "set", "excel", "true", "--profile"},
	} {
		if r := vd(args...); r.code != 2 {
			t.Errorf("%q: exit %d, want 2 %q", args, r.code, r.stderr)
		}
	}
}
