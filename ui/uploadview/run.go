package uploadview

import (
	"context"
	"errors"
	"fmt"
	"github.com/charmbracelet/lipgloss"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// scanMsg is the walk of the typed path.
type scanMsg struct {
	View page.ID
	Plan upload.Plan
}

// Target routes the walk to the view that asked.
func (m scanMsg) Target() page.ID { return m.View }

func scanCmd(view page.ID, path string) tea.Cmd {
	return func() tea.Msg { return scanMsg{View: view, Plan: upload.Walk([]string{path})} }
}

// tickMsg redraws the progress while the task runs.
type tickMsg struct{ View page.ID }

// Target routes the tick to its view.
func (m tickMsg) Target() page.ID { return m.View }

const tickEvery = 250 * time.Millisecond

// shared is what the task's goroutine and the page both see: the latest
// progress and the stop request. The page only reads it on its ticks.
type shared struct {
	mu      sync.Mutex
	p       upload.Progress
	cancel  context.CancelFunc
	stopped bool
	out     upload.Outcome // once the task ended: what became of each file
	short   bool           // its audit evidence asks for a sync (the mirror stops short of the run)
	// evidence reads the run's audit evidence again (after the sync its
	// line asked for), with the remedy of that moment
	evidence func(ctx context.Context, remedy string) (string, bool)
}

func (s *shared) setEvidence(f func(ctx context.Context, remedy string) (string, bool)) {
	s.mu.Lock()
	s.evidence = f
	s.mu.Unlock()
}

func (s *shared) evidenceAgain() func(ctx context.Context, remedy string) (string, bool) {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.evidence
}

func (s *shared) setShort(b bool) { s.mu.Lock(); s.short = b; s.mu.Unlock() }
func (s *shared) auditShort() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.short
}

func (s *shared) setOutcome(o upload.Outcome) { s.mu.Lock(); s.out = o; s.mu.Unlock() }
func (s *shared) outcome() upload.Outcome {
	if s == nil {
		return upload.Outcome{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out
}

func (s *shared) set(p upload.Progress) { s.mu.Lock(); s.p = p; s.mu.Unlock() }
func (s *shared) get() upload.Progress  { s.mu.Lock(); defer s.mu.Unlock(); return s.p }

func (s *shared) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	if s.cancel != nil {
		s.cancel()
	}
}

func (s *shared) stopping() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// start hands the upload to the root as a task and starts the ticks.
func (m *Model) start() tea.Cmd {
	m.stage = stageRun
	m.shared = &shared{}
	return tea.Batch(page.Start(Task(m.env, m.id, m.project, m.target(), m.plan, modes[m.mode], m.shared)), m.tick())
}

// tick schedules the next redraw of the progress, which the task only
// writes into shared.
func (m *Model) tick() tea.Cmd {
	view := m.id
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return tickMsg{View: view} })
}

// Task is the upload as a root-owned task. Its context is the program's;
// the page's esc cancels only the run's own context, which the uploader
// checks between requests: a request already sent keeps its response.
func Task(env page.Env, origin page.ID, projectID, target string, plan upload.Plan, mode api.DuplicateMode, sh *shared) page.StartTask {
	be, st, profile, jobs := env.Backend, env.Journal, env.DataProfile(), env.Jobs
	remedy := env.ChoreHint(page.ChoreSyncAudit) // a key in the demo, else the shell command
	// `vaultdeck uploads` shows the line again later, but not where the
	// session runs its own chores (the demo): a shell reads another store
	later := " (`vaultdeck uploads` shows it later)"
	if env.Chores != nil {
		later = ""
	}
	return page.StartTask{
		Name:        fmt.Sprintf("upload %s to %s", plural.Count(len(plan.Files), "file"), target),
		Origin:      origin,
		Invalidates: []string{person.CacheProjects},
		Reloads:     []string{person.CacheProjects},
		Stop:        sh.stop, // quitting waits for the current request's response
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			if jobs == nil || jobs.Upload == nil {
				return page.Outcome{}, errors.New("this session cannot upload")
			}
			client := jobs.Upload
			runCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			sh.mu.Lock()
			sh.cancel = cancel
			if sh.stopped {
				cancel()
			}
			sh.mu.Unlock()
			run := &upload.Runner{API: client, Store: st, Profile: profile, Progress: func(p upload.Progress) {
				sh.set(p)
				progress(fmt.Sprintf("%d of %s, %s of %s", p.FilesDone, plural.Count(p.Files, "file"), humanize.Bytes(uint64(p.BytesDone)), humanize.Bytes(uint64(p.Bytes))))
			}}
			// the project's limits first (one get_metadata): past one,
			// nothing is sent and the page says the numbers
			if m, ok := client.(upload.Metadata); ok {
				run.Limits = m
			}
			began := time.Now()
			out, err := run.Upload(runCtx, projectID, plan, mode)
			if err != nil {
				return page.Outcome{}, err
			}
			// Files of one name from several folders: which were replaced
			// or renamed is asked now, so the page can name them.
			run.Settle(ctx, &out)
			sh.setOutcome(out)
			ended := time.Now()
			evidence, short := uploadEvidence(ctx, be, st, projectID, began, ended, remedy, later)
			sh.setShort(short)
			sh.setEvidence(func(ctx context.Context, remedy string) (string, bool) {
				return uploadEvidence(ctx, be, st, projectID, began, ended, remedy, later)
			})
			text := "upload: " + out.Summary() + " · " + evidence
			if len(out.Errors) > 0 {
				// A request not journaled or not answered: the upload is
				// not known to be done, so the task ends as a failure.
				return page.Outcome{}, errors.New(text + " · " + sanitize.Line(strings.Join(out.Errors, "; ")))
			}
			return page.Outcome{Text: text}, nil
		},
	}
}

// View draws the stage.
func (m *Model) View() string {
	th := m.env.Theme
	if m.undoConfirm != nil {
		return th.Renderer.Place(m.width, m.height, lipgloss.Center, lipgloss.Center, m.undoConfirm.ViewSized(m.width, m.height))
	}
	var b strings.Builder
	b.WriteString(m.wrap(th.Title.Render("Upload to " + m.target())))
	b.WriteString("\n\n")
	switch m.stage {
	case stagePath:
		b.WriteString(m.path.View())
		b.WriteString("\n")
		if len(m.hint) > 0 {
			shown := m.hint[:min(len(m.hint), max(m.height-8, 3))]
			b.WriteString(th.Muted.Render(sanitize.Line(strings.Join(shown, "  "))))
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\nduplicate mode: %s  %s\n", th.Title.Render(string(modes[m.mode])), th.Muted.Render("(ctrl+t: skip / replace / keep)"))
		b.WriteString(th.Muted.Render("tab completes · enter continues · esc leaves"))
	case stageScan:
		b.WriteString("reading " + sanitize.Line(m.path.Value()) + " …")
	case stageConfirm:
		if m.confirm != nil {
			b.WriteString(m.confirm.ViewSized(m.width, max(m.height-2, 0)))
			break
		}
		b.WriteString(m.wrap(m.summaryParts()...))
		b.WriteString("\n")
		for i, r := range m.plan.Refused {
			if i == 5 {
				fmt.Fprintf(&b, "… and %d more refused\n", len(m.plan.Refused)-5)
				break
			}
			b.WriteString(m.wrap(th.Warn.Render("refused: " + sanitize.Line(r.Local) + ": " + sanitize.Line(r.Reason))))
			b.WriteString("\n")
		}
		if len(m.same) > 0 {
			fmt.Fprintf(&b, "%s\n", m.wrap(th.Warn.Render(fmt.Sprintf("%s in several folders: a project holds one file per name; with mode %s:", plural.Count(len(m.same), "name"), modes[m.mode]))))
			// only the groups shown are described (each group's text grows
			// with its files): five, and one to know there are more
			for i, l := range sameNameLines(m.same[:min(len(m.same), 6)], modes[m.mode]) {
				if i == 5 {
					fmt.Fprintf(&b, "… and %s\n", plural.Count(len(m.same)-5, "more name"))
					break
				}
				b.WriteString(m.wrap(th.Warn.Render(l)) + "\n")
			}
			b.WriteString(m.wrap(th.Muted.Render("ctrl+t shows another mode's effect; to keep each under its own name, rename one and enter the path again")) + "\n")
		}
		b.WriteString("\n" + m.wrap(th.Muted.Render("enter asks for the file count, to confirm"), th.Muted.Render("ctrl+t changes the duplicate mode"), th.Muted.Render("esc goes back")))
	case stageRun, stageDone:
		m.progressView(&b)
	}
	return b.String()
}

func (m *Model) progressView(b *strings.Builder) {
	th := m.env.Theme
	if m.err != "" {
		b.WriteString(m.wrap(th.Warn.Render(m.err)))
		return
	}
	p := m.shared.get()
	frac := 0.0
	if p.Bytes > 0 {
		frac = float64(p.BytesDone) / float64(p.Bytes)
	}
	b.WriteString(m.bar.ViewAs(frac))
	fmt.Fprintf(b, " %3.0f%%\n\n", frac*100)
	el := time.Since(p.Started).Seconds()
	rate, eta := 0.0, "–"
	if el > 0 && !p.Started.IsZero() {
		rate = float64(p.BytesDone) / el
	}
	if rate > 0 && p.Bytes > p.BytesDone {
		eta = time.Duration(float64(p.Bytes-p.BytesDone) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(b, "bytes  %s of %s\nfiles  %d of %d   (request %d of %d)\nrate   %s/s   ETA %s\n",
		humanize.Bytes(uint64(p.BytesDone)), humanize.Bytes(uint64(p.Bytes)), p.FilesDone, p.Files, p.Batch, p.Batches,
		humanize.Bytes(uint64(rate)), eta)
	switch {
	case m.stage == stageDone:
		b.WriteString("\n" + m.wrap(sanitize.Line(m.outcome)) + "\n")
		if m.filesErr != "" {
			b.WriteString(m.wrap(th.Warn.Render(m.filesErr)) + "\n")
		}
		if m.run == 0 {
			m.outcomeView(b)
			b.WriteString(th.Muted.Render("esc leaves"))
			break
		}
		b.WriteString(m.table.View() + "\n")
		b.WriteString(th.Muted.Render("every file of run " + strconv.FormatInt(m.run, 10) + " · C: its command · e: the CSV · esc leaves"))
	case m.shared.stopping():
		b.WriteString("\n" + th.Warn.Render("stopping after the current request's response…"))
	default:
		b.WriteString("\n" + th.Muted.Render("esc stops after the current request (the rest stays in the journal for vaultdeck upload --resume)"))
	}
}

// wrap lays texts out in the page's width, joined by " · " and wrapped
// between them (widgets.Fit): the terminal would cut a long line at its
// edge, and with it a count or a refusal's reason.
func (m *Model) wrap(texts ...string) string {
	parts := make([]widgets.Part, len(texts))
	for i, t := range texts {
		parts[i] = widgets.Keep(t)
	}
	return strings.Join(widgets.Fit(m.width, parts...), "\n")
}

// outcomeView lists the files of the finished upload that were not simply
// uploaded, as many as the page has room for, and the command that lists
// them all.
func (m *Model) outcomeView(b *strings.Builder) {
	th := m.env.Theme
	lines := m.report
	room := max(m.height-14, 3)
	for i, l := range lines {
		if i == room {
			fmt.Fprintf(b, "… and %d more\n", len(lines)-room)
			break
		}
		b.WriteString(m.wrap(th.Warn.Render(l)) + "\n")
	}
	if m.reportHint != "" && len(lines) > 0 {
		b.WriteString(m.wrap(th.Muted.Render(m.reportHint)) + "\n")
	}
}

// fitTable gives the run's files what the page leaves under the progress
// and the outcome (which wraps) and above the last line.
func (m *Model) fitTable() {
	if m.stage != stageDone || m.run == 0 || m.width == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(m.wrap(m.env.Theme.Title.Render("Upload to "+m.target())) + "\n\n")
	b.WriteString("bar\n\nbytes\nfiles\nrate\n")
	b.WriteString("\n" + m.wrap(sanitize.Line(m.outcome)) + "\n")
	if m.filesErr != "" {
		b.WriteString(m.wrap(m.filesErr) + "\n")
	}
	used := strings.Count(b.String(), "\n") + 1 // and the last line
	m.table.SetSize(m.width, max(m.height-used, 3))
}
