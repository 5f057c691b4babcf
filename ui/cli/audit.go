package cli

import (
	"bytes"
	"context"
	"strings"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

func (r *runner) whoami(ctx context.Context, args []string) int {
	fs := r.newFlagSet("whoami", "")
	if code, ok := r.parseNoArgs(fs, args); !ok {
		return code
	}
	c, err := r.client()
	if err != nil {
		return r.fail(err)
	}
	ctx = api.WithWaitObserver(ctx, r.listProgress().observe)
	w, err := c.WhoAmI(ctx)
	if err != nil {
		return r.fail(err)
	}
	if r.jsonOut() {
		// The server's own object, unknown fields included, on one line.
		_, err := r.env.Stdout.Write(append(safeRaw(nil, bytes.TrimSpace(w.Raw)), '\n'))
		return r.done(err)
	}
	t := r.table("FIELD", "VALUE")
	t.row("name", w.Name)
	t.row("email", w.Email)
	t.row("user id", w.UserID)
	t.row("workspace", w.WorkspaceName)
	t.row("workspace id", w.WorkspaceID)
	t.row("token", w.TokenName)
	t.row("base url", c.Base())
	t.row("permissions", strings.Join(w.Permissions, ", "))
	return r.done(t.flush())
}

func (r *runner) emitJSON(v any) int {
	if err := writeJSON(r.env.Stdout, v); err != nil {
		return r.fail(err)
	}
	return ExitOK
}

func (r *runner) done(err error) int {
	if err != nil {
		return r.fail(err)
	}
	return ExitOK
}

// oneLine makes an error message safe for the terminal.
func oneLine(s string) string { return sanitize.Line(s) }
