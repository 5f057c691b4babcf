package page

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
)

// Tasks: a mutation (delete a project, upload files, upsert matters) belongs
// to the root, never to the page that started it. The page may be closed
// while the request is in flight; the root still shows the outcome, drops
// the caches the change made wrong, and reloads the open pages showing the
// changed data.
//
// A page starts one by returning the StartTask message:
//
//	return m, page.Start(page.StartTask{
//		Name:   "delete project Acme",
//		Origin: m.id,
//		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
//			r, err := be.DeleteProject(ctx, id)
//			if err != nil {
//				return page.Outcome{}, err
//			}
//			return page.Outcome{Text: "Acme deleted"}, nil
//		},
//		Invalidates: []string{person.CacheProjects},
//	})
//
// The root gives the task an ID and a footer line with a spinner (and the
// latest progress text) while Run runs, in a goroutine, with the program's
// context: leaving the page does not cancel a mutation already sent. When
// Run returns the root
//   - shows Outcome.Text (or "NAME failed: ERR") in the status line,
//   - forgets the Invalidates cache keys (whether Run failed or not: a
//     failure may have changed part of the data),
//   - reloads the pages showing any key of Reloads (page.Reloader): the
//     page on top at once, covered pages when they are shown again,
//   - broadcasts TaskDone and then Outcome.Broadcast to every page on the
//     stack (the starting page finds its own by Origin),
//   - starts Outcome.Then, a follow-up task, when set (e.g. waiting until a
//     deleted project shows in the recycle bin).
type (
	// TaskID names one task of the program.
	TaskID uint64

	// Progress sets the task's footer text ("3 of 10 files"). Safe to call
	// from Run's goroutine; the root shows the latest text.
	Progress func(text string)

	// StartTask asks the root to run a mutation as a task.
	StartTask struct {
		Name   string // footer and status line: "delete project Acme"
		Origin ID     // the page that started it (0: none); echoed in TaskDone
		Run    func(ctx context.Context, progress Progress) (Outcome, error)
		// Invalidates are cache keys (person.CacheProjects, ...) the change makes wrong.
		Invalidates []string
		// Reloads are cache keys whose open pages must reload afterwards.
		Reloads []string
		// Stop, when set, asks Run to wind down without losing what is in
		// flight (an upload finishes its current request and returns). On
		// quit the root calls it and waits for Run; a second ctrl+c quits
		// at once.
		Stop func()
	}

	// Outcome is what a finished task reports.
	Outcome struct {
		Text      string     // status line; "" means "NAME done"
		Broadcast tea.Msg    // optional: delivered to every page (e.g. ProjectDeleted)
		Then      *StartTask // optional follow-up task
	}

	// TaskDone is broadcast to every page when a task ends.
	TaskDone struct {
		ID      TaskID
		Origin  ID
		Name    string
		Outcome Outcome
		Err     error
	}

	// TaskStarted is delivered to the Origin page once the task has an ID.
	TaskStarted struct {
		ID     TaskID
		Origin ID
		Name   string
	}

	// Reloader is a page showing data that a task can change. Shows reports
	// whether the page displays the data cached under key; Reload fetches it
	// again (spending budget, so the root calls it only for affected pages).
	Reloader interface {
		Shows(key string) bool
		Reload() tea.Cmd
	}
)

// Target implements Scoped: TaskStarted goes to the page that asked.
func (t TaskStarted) Target() ID { return t.Origin }

// Start returns the command that hands t to the root.
func Start(t StartTask) tea.Cmd { return func() tea.Msg { return t } }
