package cli

// stderrIsTerminal looks at the real stderr.
func (r *runner) stderrIsTerminal() bool { return r.p.StderrIsTerminal() }

// jsonOut reports whether the command prints JSON (--json or --jsonl).
func (r *runner) jsonOut() bool { return r.g.JSON || r.g.JSONL }
