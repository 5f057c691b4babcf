package store

// Schema is the schema version this build's migrations bring a store to:
// the newest store file it opens (a newer one is refused, "upgrade
// vaultdeck"), and what `vaultdeck version` names so an admin can tell
// which releases share a store.
func Schema() int { return len(migrations) }
