package cli

import (
	"strings"
	"testing"
)

// TestUnknownCommandSuggests: a mistyped command names the commands it is
// near, as gh's and kubectl's do (cobra's suggestions), and still exits
// with the usage status; a word near nothing suggests nothing.
func TestUnknownCommandSuggests(t *testing.T) {
	_, vd := newSimEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"projets"}, `did you mean "projects"?`},
		{[]string{"recyclebin"}, `did you mean "recycle-bin"?`},
		{[]string{"audit", "folow"}, `did you mean "follow"?`},
		{[]string{"matters", "delet"}, `did you mean "delete"?`},
	} {
		r := vd("", tc.args...)
		if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, r.code, r.stderr, ExitUsage, tc.want)
		}
		if strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%v: the refusal is more than one line: %q", tc.args, r.stderr)
		}
	}
	if r := vd("", "zzzzqqqq"); r.code != ExitUsage || strings.Contains(r.stderr, "did you mean") {
		t.Errorf("zzzzqqqq: exit %d, stderr %q; want no suggestion", r.code, r.stderr)
	}
}
