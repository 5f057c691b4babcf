package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
)

// Requirements must name every endpoint of the table that needs a
// permission, so `profiles --check` cannot miss one added later: the test
// reads endpoints.go's declarations rather than a second list.
func TestRequirementsNameEveryEndpointWithAPermission(t *testing.T) {
	fs := token.NewFileSet()
	f, err := parser.ParseFile(fs, "endpoints.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Names) != 1 || !strings.HasPrefix(vs.Names[0].Name, "ep") {
			return true
		}
		if cl, ok := vs.Values[0].(*ast.CompositeLit); ok {
			if id, ok := cl.Type.(*ast.Ident); ok && id.Name == "endpoint" {
				declared = append(declared, vs.Names[0].Name)
			}
		}
		return true
	})
	eps := map[string]endpoint{"epWhoAmI": epWhoAmI}
	var got []string
	for _, r := range Requirements() {
		got = append(got, r.Endpoint)
		if len(r.groups) == 0 {
			t.Errorf("%s: no permission names for %q", r.Endpoint, r.Permission)
		}
	}
	if len(declared) < 10 {
		t.Fatalf("read %d endpoint declarations; the parse is wrong", len(declared))
	}
	if want := len(declared) - len(eps); len(got) != want {
		t.Errorf("Requirements lists %d endpoints, endpoints.go declares %d with a permission (%v)", len(got), want, declared)
	}
	if slices.Contains(got, epWhoAmI.String()) {
		t.Error("whoami needs no permission")
	}
	r := Requirements()[slices.Index(got, epProjectUsers.String())]
	if l := r.Lacks([]string{"vault api"}); !slices.Equal(l, []string{"Vault sharing (view only) or Vault sharing"}) {
		t.Errorf("users with Vault API alone lacks %q", l)
	}
	if l := r.Lacks([]string{"Vault API", "Vault sharing"}); len(l) != 0 {
		t.Errorf("users with every permission lacks %q", l)
	}
}
