//go:build !linux

package store

// sharedLockHeld has no probe here: OFD locks and F_GETLK's view of them
// are Linux's (TestOpenStoresKeepTheirLocks runs there).
func sharedLockHeld(string) int { return 2 }
