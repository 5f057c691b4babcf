package serve

// Rights per key: what a session may change is decided once, from the
// server's --allow-writes (the ceiling) and the key's line (WritesOption),
// and handed to the console as read-only or not; the key map, help and
// footers follow from that one decision (ui/keys), as for --read-only.

// Why a session's mutating keys are off, as their status line says it.
const (
	whyServerReadOnly = "this server is read-only (serve runs without --allow-writes)"
	whyKeyReadOnly    = "this key may not change the workspace (its line in the authorized keys has no " + WritesOption + ")"
)

// mayWrite: the server allows writes and the session's key was granted them.
func (ss *session) mayWrite(allowWrites bool) bool { return allowWrites && ss.key.Writes }

// readOnlyWhy is why a session may not write ("" when it may).
func (ss *session) readOnlyWhy(allowWrites bool) string {
	switch {
	case !allowWrites:
		return whyServerReadOnly
	case !ss.key.Writes:
		return whyKeyReadOnly
	}
	return ""
}
