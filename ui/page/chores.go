package page

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
)

// Chore names a background job of the local store that a hint may ask for:
// the audit mirror's sync, the access crawl.
type Chore string

// The chores a hint may name.
const (
	ChoreNone        Chore = ""
	ChoreSyncAudit   Chore = "audit sync"
	ChoreCrawlAccess Chore = "access crawl"
)

// Chores are the local jobs a session runs in the console itself, as
// tasks: handed over only where a shell cannot reach what the console
// reads (the demo: its simulator and its store live in this process and
// its temporary home, so `vaultdeck audit sync` in a shell syncs another
// mirror). nil: a shell command is the right hint, and views give it.
type Chores struct {
	SyncAudit   func(ctx context.Context, progress Progress) (Outcome, error)
	CrawlAccess func(ctx context.Context, progress Progress) (Outcome, error)

	// running counts the chores' tasks under way (the root's Began and
	// Ended, on its own goroutine), so a hint and L follow them.
	running map[Chore]int
}

// Began notes that the task named name started: when it is a chore, its
// hint says it runs until Ended.
func (c *Chores) Began(name string) {
	if c == nil || !c.Has(Chore(name)) {
		return
	}
	if c.running == nil {
		c.running = map[Chore]int{}
	}
	c.running[Chore(name)]++
}

// Ended notes that the task named name ended.
func (c *Chores) Ended(name string) {
	if c == nil || c.running[Chore(name)] == 0 {
		return
	}
	c.running[Chore(name)]--
}

// Running reports whether chore ch runs here now.
func (c *Chores) Running(ch Chore) bool { return c != nil && c.running[ch] > 0 }

// Has reports whether c can run chore ch.
func (c *Chores) Has(ch Chore) bool {
	if c == nil {
		return false
	}
	switch ch {
	case ChoreSyncAudit:
		return c.SyncAudit != nil
	case ChoreCrawlAccess:
		return c.CrawlAccess != nil
	}
	return false
}

// Start is the task that runs chore ch (nil when c cannot run it).
func (c *Chores) Start(ch Chore) tea.Cmd {
	if !c.Has(ch) {
		return nil
	}
	run := c.SyncAudit
	if ch == ChoreCrawlAccess {
		run = c.CrawlAccess
	}
	return Start(StartTask{Name: string(ch), Run: run})
}

// ChoreHinter is a page whose hint on screen asks for a chore (a mirror
// that does not reach far enough, no access snapshot yet): the root runs
// it on the RunHere key when the session has it (Env.Chores).
type ChoreHinter interface{ Chore() Chore }

// ChoreHint is the remedy a hint gives for chore ch: the key that runs it
// here when the session can (the demo), else the shell command.
func (e Env) ChoreHint(ch Chore) string {
	if e.Chores.Running(ch) {
		return "the " + string(ch) + " is running here"
	}
	if e.Chores.Has(ch) {
		return "press " + e.Keys.RunHere.Help().Key + " to run the " + string(ch) + " here"
	}
	return "run `vaultdeck " + string(ch) + "`"
}
