package cli

import (
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"reflect"
)

// emitJSON prints a command's result: indented JSON with --json; with
// --jsonl a list is one item a line (and anything else one line), so every
// listing that prints through here honours both flags.
func (r *runner) emitJSON(v any) int {
	if !r.g.JSONL {
		return r.done(writeJSON(r.env.Stdout, v))
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		for i := range rv.Len() {
			if err := printer.WriteJSONLine(r.env.Stdout, rv.Index(i).Interface()); err != nil {
				return r.fail(err)
			}
		}
		return ExitOK
	}
	return r.done(printer.WriteJSONLine(r.env.Stdout, v))
}

func (r *runner) done(err error) int {
	if err != nil {
		return r.fail(err)
	}
	return ExitOK
}
