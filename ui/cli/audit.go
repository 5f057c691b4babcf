package cli

import (
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

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
