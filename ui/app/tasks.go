package app

import (
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// task is one running mutation; see page.StartTask for the contract.
type task struct {
	id       page.TaskID
	start    page.StartTask
	progress atomic.Pointer[string] // written by Run's goroutine, read by View
}

// taskFinished is the private message a task's command answers with.
type taskFinished struct {
	t   *task
	out page.Outcome
	err error
}

// tasks is the root's part that runs page.StartTask: the running list, the
// footer spinner (ticking only while something runs) and the reloads owed
// to covered pages.
type tasks struct {
	next    page.TaskID
	running []*task
	spin    spinner.Model
	ticking bool
	// owed are reloads of covered pages, run when the page is on top again.
	owed map[page.Page]bool
	// quitting: the user quit while tasks with a Stop were running; the
	// program ends when the last of them returns.
	quitting bool
}

// quit ends the program, unless tasks that can wind down are running (an
// upload's request in flight): those are asked to stop and the program
// ends when they have returned, so no response is lost. Quitting again
// while waiting ends it at once.
func (m *Model) quit() tea.Cmd {
	if m.tasks.quitting || !m.draining() {
		return tea.Quit
	}
	m.tasks.quitting = true
	for _, t := range m.tasks.running {
		if t.start.Stop != nil {
			t.start.Stop()
		}
	}
	m.setStatus(page.StatusMsg{Text: "quitting once the running task's current request is answered (ctrl+c again quits now)"})
	return nil
}

// draining reports whether a running task can wind down.
func (m *Model) draining() bool {
	for _, t := range m.tasks.running {
		if t.start.Stop != nil {
			return true
		}
	}
	return false
}

func (m *Model) startTask(st page.StartTask) tea.Cmd {
	if st.Run == nil {
		return nil
	}
	m.tasks.next++
	t := &task{id: m.tasks.next, start: st}
	m.tasks.running = append(m.tasks.running, t)
	m.env.Chores.Began(st.Name)
	m.resize()
	ctx := m.env.Context() // the program's: leaving a page never cancels a mutation already sent
	run := func() tea.Msg {
		out, err := st.Run(ctx, func(s string) { t.progress.Store(&s) })
		return taskFinished{t: t, out: out, err: err}
	}
	started := func() tea.Msg { return page.TaskStarted{ID: t.id, Origin: st.Origin, Name: st.Name} }
	cmds := []tea.Cmd{run, started}
	if !m.tasks.ticking {
		m.tasks.ticking = true
		cmds = append(cmds, m.tasks.spin.Tick)
	}
	return tea.Batch(cmds...)
}

// finishTask does everything a finished task owes, whatever page is on top.
func (m *Model) finishTask(f taskFinished) tea.Cmd {
	for i, t := range m.tasks.running {
		if t == f.t {
			m.tasks.running = append(m.tasks.running[:i:i], m.tasks.running[i+1:]...)
			m.env.Chores.Ended(f.t.start.Name)
			break
		}
	}
	m.resize()
	st := f.t.start
	if f.err != nil {
		m.setStatus(page.StatusMsg{Err: fmt.Errorf("%s failed: %w", st.Name, f.err)})
	} else if f.out.Text != "" {
		m.setStatus(page.StatusMsg{Text: f.out.Text})
	} else {
		m.setStatus(page.StatusMsg{Text: st.Name + " done"})
	}
	var cmds []tea.Cmd
	cmds = append(cmds, page.ForgetCmd(m.env.Cache, st.Invalidates...))
	done := page.TaskDone{ID: f.t.id, Origin: st.Origin, Name: st.Name, Outcome: f.out, Err: f.err}
	cmds = append(cmds, m.broadcast(done))
	if f.out.Broadcast != nil {
		cmds = append(cmds, m.broadcast(f.out.Broadcast))
	}
	cmds = append(cmds, m.reload(st.Reloads))
	if m.tasks.quitting && !m.draining() {
		return tea.Batch(append(cmds, tea.Quit)...)
	}
	if f.err == nil && f.out.Then != nil {
		cmds = append(cmds, m.startTask(*f.out.Then))
	}
	return tea.Batch(cmds...)
}

// reload asks the page on top to reload when it shows one of keys, and
// notes the covered pages that do: they reload when shown again, so a
// change spends budget only on what the user looks at.
func (m *Model) reload(keys []string) tea.Cmd {
	if len(keys) == 0 {
		return nil
	}
	var cmd tea.Cmd
	for i, p := range m.stack {
		r, ok := p.(page.Reloader)
		if !ok || !showsAny(r, keys) {
			continue
		}
		if i == len(m.stack)-1 {
			cmd = r.Reload()
			continue
		}
		if m.tasks.owed == nil {
			m.tasks.owed = map[page.Page]bool{}
		}
		m.tasks.owed[p] = true
	}
	return cmd
}

// reloadOwed runs the reload a page shown again has been owed.
func (m *Model) reloadOwed() tea.Cmd {
	top := m.Top()
	if top == nil || !m.tasks.owed[top] {
		return nil
	}
	delete(m.tasks.owed, top)
	return top.(page.Reloader).Reload()
}

func showsAny(r page.Reloader, keys []string) bool {
	for _, k := range keys {
		if r.Shows(k) {
			return true
		}
	}
	return false
}

// broadcast delivers msg to every page on the stack.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i, p := range m.stack {
		var cmd tea.Cmd
		m.stack[i], cmd = p.Update(msg)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// tickTasks advances the footer spinner; it re-arms only while tasks run.
func (m *Model) tickTasks(msg spinner.TickMsg) tea.Cmd {
	if len(m.tasks.running) == 0 {
		m.tasks.ticking = false
		return nil
	}
	var cmd tea.Cmd
	m.tasks.spin, cmd = m.tasks.spin.Update(msg)
	return cmd
}

// taskLines is the footer: one line per running task.
func (m *Model) taskLines() []string {
	th := m.env.Theme
	lines := make([]string, 0, len(m.tasks.running))
	for _, t := range m.tasks.running {
		s := fmt.Sprintf("%s #%d %s", m.tasks.spin.View(), t.id, sanitize.Line(t.start.Name))
		if p := t.progress.Load(); p != nil && *p != "" {
			s += " · " + sanitize.Line(*p)
		}
		lines = append(lines, th.StatusLine.Render(ansi.Truncate(s, m.width, "…")))
	}
	return lines
}

func (m *Model) taskView() string { return strings.Join(m.taskLines(), "\n") }
