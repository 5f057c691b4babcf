// Package matters is the matter job, one home for a batch deletion or
// restore of client/matter pairs: reading the file (read.go, decode.go),
// planning the requests (plan.go), sending them and reporting every pair
// exactly once with its line number (send.go, outcome.go, wait.go), keeping
// the run's receipt as it goes (run.go, incomplete.go), and restoring what a
// deletion proved it deleted (restore.go, judge.go). The command line, the
// console and serve drive it alike; it draws nothing. The HTTP calls are the
// root api package's (api/matters.go); the persistence it needs is named by
// Receipts and satisfied by *store.Store.
package matters
