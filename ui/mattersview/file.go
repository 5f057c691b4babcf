package mattersview

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/matters"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// maxShown bounds the completion candidates listed under the input.
const maxShown = 8

type (
	// completed answers a Tab: the directory entries that extend the input.
	completed struct {
		page.Tag
		input   string
		matches []string // names, "/" appended to directories
		err     error
	}
	// fileRead is a file read and planned (or the reason it was refused).
	fileRead struct {
		page.Tag
		name string
		file *matters.File
		plan *matters.Plan
		err  error
		// earlier is what this machine's earlier deletions of the same
		// file mean for running it again (matters.Earlier), as the headless
		// preview says it; earlierErr when the receipts cannot be read.
		earlier    []string
		earlierErr error
	}
)

func (m *Model) openPath(value string) {
	m.mode, m.matches, m.pathErr = modePath, nil, ""
	m.path = &widgets.Input{Prompt: "file (CSV or TSV): ", PromptStyle: m.env.Theme.Input, CursorStyle: m.env.Theme.TextCursor}
	m.path.SetValue(value)
	m.path.Focus()
	m.layout()
}

func (m *Model) pathValue() string {
	if m.path == nil {
		return ""
	}
	return m.path.Value()
}

func (m *Model) pathKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	switch {
	case msg.Type == tea.KeyEsc:
		if m.file != nil {
			m.mode = modePreview
			m.layout()
			return nil
		}
		return m.backToList()
	case msg.Type == tea.KeyEnter:
		if strings.TrimSpace(m.path.Value()) == "" {
			return nil
		}
		return m.readFile()
	case key.Matches(msg, k.NextTab):
		if m.path.Value() == "~" {
			m.path.SetValue("~/")
		}
		tag := m.reqs.Next(m.id)
		return complete(tag, m.path.Value())
	}
	if m.path.Update(msg) {
		m.matches, m.pathErr = nil, ""
	}
	return nil
}

// expand resolves a leading ~ to the home directory (only ever inside a Cmd).
func expand(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}

// complete lists the entries of the typed directory that start with the
// typed name. Hidden entries show only when the name starts with a dot.
func complete(tag page.Tag, input string) tea.Cmd {
	return func() tea.Msg {
		dir, base := filepath.Split(expand(input))
		if dir == "" {
			dir = "."
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return completed{Tag: tag, input: input, err: err}
		}
		var out []string
		for _, e := range entries {
			name := e.Name()
			if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
				continue
			}
			if e.IsDir() {
				name += "/"
			} else if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.IsDir() {
				name += "/" // a symlink to a directory
			}
			out = append(out, name)
		}
		sort.Strings(out)
		return completed{Tag: tag, input: input, matches: out}
	}
}

// completeArrived extends the input by what all matches share and lists
// them when there is more than one. A stale answer (typing went on) is
// dropped.
func (m *Model) completeArrived(c completed) {
	if !m.reqs.Current(c.Tag) || m.mode != modePath || m.path.Value() != c.input {
		return
	}
	m.matches = nil
	if c.err != nil {
		m.pathErr = "cannot list that directory: " + sanitize.Line(c.err.Error())
		return
	}
	if len(c.matches) == 0 {
		m.pathErr = "no file starts with that"
		return
	}
	dir := c.input[:strings.LastIndex(c.input, "/")+1]
	m.path.SetValue(dir + commonPrefix(c.matches))
	if len(c.matches) > 1 {
		m.matches = c.matches
	}
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// readFile reads, checks and plans the file in a Cmd: nothing is sent.
func (m *Model) readFile() tea.Cmd {
	tag, path, st := m.reqs.Next(m.id), m.path.Value(), m.deps.Store
	perMinute := 0
	if b := m.env.Backend.Budget(api.CategoryMatters); b.Unlimited {
		perMinute = 1 << 30
	} else {
		perMinute = b.Limit
	}
	m.pathErr = "reading…"
	return func() tea.Msg {
		// No stdin in the console: "-" is a file of that name.
		f, err := matters.Open(expand(path), nil)
		if err != nil {
			return fileRead{Tag: tag, err: err}
		}
		defer f.Close()
		file, err := matters.Read(f, matters.Auto)
		if err != nil {
			return fileRead{Tag: tag, err: fmt.Errorf("%s: %w; nothing was sent", filepath.Base(path), err)}
		}
		r := fileRead{Tag: tag, name: filepath.Base(path), file: file, plan: matters.NewPlan(file.Pairs, perMinute)}
		if st != nil {
			r.earlier, r.earlierErr = matters.Earlier(st, file.SHA256)
		}
		return r
	}
}

func (m *Model) fileArrived(r fileRead) tea.Cmd {
	if !m.reqs.Current(r.Tag) {
		return nil
	}
	if r.err != nil {
		m.pathErr = sanitize.Line(r.err.Error())
		return nil
	}
	m.fileName, m.file, m.plan, m.pathErr = r.name, r.file, r.plan, ""
	m.earlier, m.earlierErr = r.earlier, r.earlierErr
	m.rejected = r.plan.Rejected()
	m.mode = modePreview
	m.layout()
	return m.refused.SetRows(outcomeRows(m.rejected))
}

// askDelete opens the typed confirmation: the number of pairs to send.
func (m *Model) askDelete() tea.Cmd {
	if m.plan == nil || len(m.plan.Send) == 0 {
		return page.Status("no pair of this file can be sent")
	}
	n := len(m.plan.Send)
	msg := fmt.Sprintf("Soft-delete the matters of %s from %s in %s? %s will not be sent. "+
		"A receipt keeps every outcome; a receipt's deleted matters can be restored.",
		plural.Count(n, "pair"), sanitize.Line(m.fileName), plural.Count(m.plan.Requests(), "request"), plural.Count(m.plan.RejectedCount(), "refused pair"))
	if len(m.earlier) > 0 { // where the person decides, as the headless preview says it
		msg += " Earlier: " + sanitize.Line(strings.Join(m.earlier, "; ")) + "."
	}
	m.confirm = widgets.NewConfirm(m.env.Theme, "Delete client matters", msg, fmt.Sprint(n))
	m.pending = m.startDelete
	return nil
}
