package cli

// jsonOut reports whether the command prints JSON (--json or --jsonl).
func (r *runner) jsonOut() bool { return r.g.JSON || r.g.JSONL }
