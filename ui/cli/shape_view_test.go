package cli

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TestViewTakesJQAndTemplate: `vaultdeck view NAME` runs its command
// inside this one (a second Main on the same stdout); --jq and --template
// shape the output once, as the command's own would, not twice.
func TestViewTakesJQAndTemplate(t *testing.T) {
	path, vd, r := viewsEnv(t)
	q := page.Query{Command: []string{"recycle-bin"}}
	if err := account.SaveView(path, "bin", q.Quoted(), checkView(r.orig)); err != nil {
		t.Fatal(err)
	}
	for _, shape := range [][]string{
		{"--jq", ".[] | .vault_project.name"},
		{"--template", `{{range .}}{{.vault_project.name}}{{"\n"}}{{end}}`},
		{"--jsonl", "--template", `{{.id}} {{timeago .deleted_at}}{{"\n"}}`},
	} {
		want := vd(append([]string{"recycle-bin"}, shape...)...)
		got := vd(append([]string{"view", "bin"}, shape...)...)
		if want.code != 0 || len(want.stdout) < 50 || got.code != 0 || got.stdout != want.stdout {
			t.Errorf("%q: view exit %d %q\n got %.200q\nwant %.200q", shape, got.code, got.stderr, got.stdout, want.stdout)
		}
	}
}
