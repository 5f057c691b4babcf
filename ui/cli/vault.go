package cli

// fail prints an error and returns the error status (the printer's Fail).
func (r *tree) fail(err error) int { return r.p.Fail(err) }

// usage reports a usage error in one line naming the problem and the
// command's help (exit 2).
func (r *tree) usage(format string, a ...any) int { return r.p.Usage(format, a...) }
