package cli

import (
	"io"

	"github.com/vaultdeck/vaultdeck/api"
)

// fail prints an error and returns the error status (the printer's Fail).
func (r *runner) fail(err error) int { return r.p.Fail(err) }

// usage reports a usage error in one line naming the problem and the
// command's help (exit 2).
func (r *runner) usage(format string, a ...any) int { return r.p.Usage(format, a...) }

// readIDs reads IDs as people paste them (one per line, or separated by
// commas, semicolons or spaces; BOM, CRLF, quotes and blank lines
// tolerated; duplicates dropped): api.ParseIDs, the console's reader too.
func readIDs(in io.Reader) ([]string, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	return api.ParseIDs(string(data)), nil
}
