// Package uploadview is the console's upload: a dialog (a path with Tab
// completion, the duplicate mode, a summary of what will be sent) and a
// progress page with a bar, bytes, files, rate and ETA. The upload itself
// runs as a task owned by the root through the upload job (api/upload), journaled like
// `vaultdeck upload`, so leaving the page does not stop it and an
// interrupted run can be finished with `vaultdeck upload --resume`.
package uploadview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

type stage int

const (
	stagePath    stage = iota // typing the path
	stageScan                 // walking it (a command)
	stageConfirm              // summary shown; enter asks to type the count
	stageRun                  // the task runs; the bar moves
	stageDone                 // finished or stopped
)

var modes = []api.DuplicateMode{api.DuplicateSkip, api.DuplicateReplace, api.DuplicateKeep}

// Model is the upload page of one project.
type Model struct {
	env     page.Env
	id      page.ID
	project string // ID
	name    string // shown; may be empty
	naming  bool   // looking the name up (opened with an ID alone)
	lookup  page.Requests

	stage   stage
	path    widgets.Input
	mode    int // index into modes
	hint    []string
	plan    upload.Plan
	same    []upload.SameName // names several files of the plan carry
	confirm *widgets.Confirm  // open: the file count must be typed to start
	err     string
	shared  *shared
	bar     progress.Model
	outcome string
	// report and reportHint are the finished upload's files that were not
	// simply uploaded, and the command that lists them: made once when it
	// finishes, not at every frame (an outcome may name thousands)
	report     []string
	reportHint string

	width, height int
	undoConfirm   *widgets.Confirm // the run's undo, asked (undo.go)
	undoing       bool

	// the finished run's files, as `uploads RUN` lists them (files.go)
	table    *widgets.Table
	run      int64
	files    []store.JournalFile
	undone   *upload.Undone // what the run's undos did to them since
	filesErr string
}

// New opens the upload page; arg is "PROJECT_ID" or "PROJECT_ID NAME".
func New(env page.Env, arg string) page.Page {
	id, name, _ := strings.Cut(strings.TrimSpace(arg), " ")
	m := &Model{env: env, id: env.NewID(), project: id, name: sanitize.Line(name)}
	m.table = widgets.NewTable(env.Theme, env.Keys, m.id, fileColumns())
	m.path = widgets.Input{Prompt: "path: ", PromptStyle: env.Theme.Input, CursorStyle: env.Theme.TextCursor,
		Placeholder: "a file or folder (Tab completes)", CharLimit: 4096}
	m.path.Focus()
	m.bar = progress.New(progress.WithoutPercentage(), progress.WithSolidFill("#5fafd7"),
		progress.WithColorProfile(env.Theme.Renderer.ColorProfile()))
	switch {
	case env.ReadOnly:
		m.stage, m.err = stageDone, "this session is read-only: uploads are disabled"
	case !env.Keys.Upload.Enabled() || env.Jobs == nil || env.Jobs.Upload == nil:
		// What the session may do is decided where it is assembled
		// (keys.Session): without the key or the job handed over, no
		// upload, however the page was reached (:upload on the command line).
		m.stage, m.err = stageDone, "this session cannot upload: it was opened without the upload job"
	case id == "":
		m.stage, m.err = stageDone, "no project: open a project and press u, or :upload PROJECT_ID"
	case env.Journal == nil:
		m.stage, m.err = stageDone, "uploads need the upload journal, which this session does not have"
	default:
		m.naming = m.name == ""
	}
	return m
}

// Init looks the project's name up when the page was opened with an ID
// alone; the path can be typed meanwhile.
func (m *Model) Init() tea.Cmd { return m.lookupName() }

// ID implements page.Identified.
func (m *Model) ID() page.ID { return m.id }

// Title is the breadcrumb segment.
func (m *Model) Title() string { return "upload" }

// SetSize gives the page its area.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.path.Width = max(w-8, 1)
	m.bar.Width = max(min(w-5, 80), 10) // " 100%" takes five columns after it
	m.fitTable()
}

// CapturesInput: while the path is typed, every key is the page's.
func (m *Model) CapturesInput() bool {
	return m.stage == stagePath || m.stage == stageConfirm || m.undoConfirm != nil || (m.stage == stageDone && m.table.Filtering())
}

// WantsEsc: esc steps back in the dialog and stops a running upload
// (after the current request's response) instead of leaving the page.
func (m *Model) WantsEsc() bool {
	return m.stage == stagePath || m.stage == stageConfirm || (m.stage == stageRun && !m.shared.stopping()) ||
		(m.stage == stageDone && m.table.WantsEsc())
}

// Help lists the page's keys.
func (m *Model) Help() []key.Binding {
	b := func(k, d string) key.Binding { return key.NewBinding(key.WithKeys(k), key.WithHelp(k, d)) }
	return append([]key.Binding{b("tab", "complete the path"), b("ctrl+t", "next duplicate mode"), b("enter", "continue / confirm"),
		b("esc", "back; while uploading: stop after the current request"), m.env.Keys.UndoRun}, m.env.Keys.Navigation()...)
}

// Update handles keys, completions, the scan result, progress ticks and
// the task's end.
func (m *Model) Update(msg tea.Msg) (page.Page, tea.Cmd) {
	p, cmd := m.update(msg)
	m.fitTable()
	return p, cmd
}

func (m *Model) update(msg tea.Msg) (page.Page, tea.Cmd) {
	switch msg := msg.(type) {
	case runFilesMsg:
		if msg.View == m.id {
			return m, m.onRunFiles(msg)
		}
	case widgets.FilterResult:
		return m, m.table.Update(msg)
	case tea.KeyMsg:
		return m, m.key(msg)
	case completionMsg:
		if msg.View == m.id && m.stage == stagePath && msg.For == m.path.Value() {
			value, hint := completion(msg.For, msg.Matches)
			m.path.SetValue(value)
			m.hint = hint
		}
	case scanMsg:
		if msg.View == m.id && m.stage == stageScan {
			m.plan, m.stage = msg.Plan, stageConfirm
			m.same = msg.Plan.SameNames()
		}
	case tickMsg:
		if msg.View == m.id && m.stage == stageRun {
			return m, m.tick()
		}
	case named:
		return m, m.named(msg)
	case page.TaskStarted:
		return m, nil
	case evidenceMsg:
		if msg.view == m.id && m.stage == stageDone {
			m.shared.setShort(msg.short)
			m.outcome = "upload: " + m.shared.outcome().Summary() + " · " + msg.line
		}
	case page.TaskDone:
		if msg.Name == string(page.ChoreSyncAudit) && msg.Err == nil && m.stage == stageDone && m.shared.auditShort() {
			return m, m.evidenceAgain() // the sync the summary asked for ended: read its line anew
		}
		if msg.Origin == m.id && m.undoing {
			m.undoing = false
			if msg.Err != nil {
				m.outcome = "undo: " + sanitize.Line(msg.Err.Error())
			} else {
				m.outcome = "undo: " + sanitize.Line(msg.Outcome.Text)
			}
			return m, loadRunFiles(m.env.Journal, m.id, m.filesRun()) // what the undo removed
		}
		if msg.Origin == m.id && m.stage == stageRun {
			m.stage = stageDone
			if msg.Err != nil {
				m.outcome = "upload failed: " + sanitize.Line(msg.Err.Error())
			} else {
				m.outcome = msg.Outcome.Text
			}
			o := m.shared.outcome()
			m.report, m.reportHint = outcomeLines(o), runsHint(o.RunIDs)
			return m, loadRunFiles(m.env.Journal, m.id, m.filesRun())
		}
	}
	return m, nil
}

// Chore implements page.ChoreHinter: the summary's audit evidence asks for
// an audit sync when the mirror stops short of the run.
func (m *Model) Chore() page.Chore {
	if m.stage == stageDone && m.shared.auditShort() {
		return page.ChoreSyncAudit
	}
	return page.ChoreNone
}

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	if m.undoConfirm != nil {
		return m.undoKey(msg)
	}
	// never matches in read-only sessions or without the jobs; a letter
	// typed into the path or the table's / filter is the text's
	if m.stage == stageDone && !m.table.Filtering() && key.Matches(msg, m.env.Keys.UndoRun) {
		return m.askUndo()
	}
	switch m.stage {
	case stagePath:
		switch msg.Type {
		case tea.KeyEsc:
			return func() tea.Msg { return page.Pop{} }
		case tea.KeyTab:
			return completeCmd(m.id, m.path.Value())
		case tea.KeyCtrlT:
			m.mode = (m.mode + 1) % len(modes)
			return nil
		case tea.KeyEnter:
			p := strings.TrimSpace(m.path.Value())
			if p == "" {
				return page.Status("type the path of a file or folder to upload")
			}
			m.stage, m.hint = stageScan, nil
			return scanCmd(m.id, expandHome(p))
		}
		m.path.Update(msg)
		m.hint = nil
	case stageConfirm:
		if m.confirm != nil {
			switch m.confirm.Update(msg) {
			case widgets.Cancelled:
				m.confirm = nil // back to the summary
			case widgets.Confirmed:
				m.confirm = nil
				return m.start()
			}
			return nil
		}
		switch msg.Type {
		case tea.KeyEsc:
			m.stage = stagePath
		case tea.KeyCtrlT:
			m.mode = (m.mode + 1) % len(modes)
		case tea.KeyEnter:
			if len(m.plan.Files) == 0 {
				return page.Status("nothing to upload there")
			}
			// An upload changes the server (mode replace makes new
			// versions): like every mutation, a stray enter must not
			// start it, so the file count is typed.
			// Files of one name from several folders: what the mode does
			// with them is in the question itself, so typing the count is
			// choosing it.
			msg := m.summary()
			if len(m.same) > 0 {
				msg += " · " + strings.Join(sameNameLines(m.same, modes[m.mode]), " · ")
			}
			m.confirm = widgets.NewConfirm(m.env.Theme, "Upload", sanitize.Line(msg), strconv.Itoa(len(m.plan.Files)))
		}
	case stageRun:
		if msg.Type == tea.KeyEsc && !m.shared.stopping() {
			m.shared.stop()
			return page.Status("stopping after the current request's response (it is needed to avoid duplicates)")
		}
	case stageDone:
		return m.table.Update(msg) // the run's files: move, sort, filter
	}
	return nil
}

func (m *Model) target() string {
	if m.name != "" {
		return fmt.Sprintf("%q", m.name)
	}
	return m.project
}

func (m *Model) summary() string { return strings.Join(m.summaryParts(), " · ") }

// summaryParts are the summary's items, so that a narrow terminal wraps
// between them instead of cutting the counts at the end.
func (m *Model) summaryParts() []string {
	p := m.plan
	parts := []string{fmt.Sprintf("%s, %s → project %s, duplicate mode %s", plural.Count(len(p.Files), "file"), humanize.Bytes(uint64(p.Bytes)), m.target(), modes[m.mode])}
	if n := len(p.Refused); n > 0 {
		parts = append(parts, fmt.Sprintf("%d refused", n))
	}
	if n := len(p.Notes); n > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped (hidden or links)", n))
	}
	for i := range parts {
		parts[i] = sanitize.Line(parts[i])
	}
	return parts
}
