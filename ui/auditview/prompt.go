package auditview

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/vaultdeck/vaultdeck/api/audit"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/keys"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// typeChoices is "" (all types), then the documented types and those
// seen, sorted.
func typeChoices(seen map[string]struct{}) []string {
	set := map[string]struct{}{}
	for _, t := range documentedTypes {
		set[t] = struct{}{}
	}
	for t := range seen {
		if t != "" {
			set[sanitize.Line(t)] = struct{}{}
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	slices.Sort(out)
	return append([]string{""}, out...)
}

// pickKey moves the type picker. It holds the keyboard without being a
// text input, so a burst ("jjjj" in one read) is split here, key by key.
func (m *Model) pickKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	for _, one := range keys.Each(msg) {
		switch {
		case !m.pickingType:
			return nil // closed by a key of the burst
		case key.Matches(one, k.Back):
			m.pickingType = false
		case key.Matches(one, k.Up):
			m.pickAt = max(m.pickAt-1, 0)
		case key.Matches(one, k.Down, k.TypeCycle):
			m.pickAt = min(m.pickAt+1, len(m.picker)-1)
		case key.Matches(one, k.Top):
			m.pickAt = 0
		case key.Matches(one, k.Bottom):
			m.pickAt = len(m.picker) - 1
		case key.Matches(one, k.Enter):
			m.pickingType = false
			m.filter.Type = m.picker[m.pickAt]
			return m.refilter()
		}
	}
	return nil
}

// open opens a prompt holding value (editable: ctrl+u clears it).
func (m *Model) open(what, prompt, value, placeholder string) tea.Cmd {
	m.prompt, m.promptErr = what, ""
	m.input.Prompt = prompt
	m.input.SetValue(value)
	m.input.Placeholder = placeholder
	m.input.Focus()
	return nil
}

// offer is what a filter's prompt starts with: the selected row's value
// (the user or address an investigation goes on with), else the filter's.
func (m *Model) offer(of func(*store.AuditEntry) string, current string) string {
	if r, ok := m.Table.Selected(); ok {
		if i, ok := m.byID[r.ID]; ok && i >= 0 && i < len(m.entries) {
			if v := sanitize.Line(of(&m.entries[i])); v != "" {
				return v
			}
		}
	}
	return current
}

// promptKey edits the open prompt. A value that cannot be used keeps it
// open, with the reason under it: closing it sent the rest of what was
// being typed to the table as keys (":05" of "14:05" opened the command
// line).
func (m *Model) promptKey(msg tea.KeyMsg) tea.Cmd {
	switch m.input.Edit(msg) {
	case widgets.Cancelled:
		m.prompt, m.promptErr = "", ""
	case widgets.Submitted:
		return m.submit(m.prompt, strings.TrimSpace(sanitize.Line(m.input.Value())))
	default:
		m.promptErr = "" // being corrected
	}
	return nil
}

// submit applies a prompt's value, or keeps the prompt open with why not.
func (m *Model) submit(what, v string) tea.Cmd {
	var at time.Time
	var err error
	switch what {
	case "time":
		// the forms of --since, read by the one parser
		at, err = audit.ParseWhen(v, m.env.Clock())
		if err == nil && at.IsZero() {
			err = errors.New("type a date (2026-11-01), a time (2026-11-01 14:05) or an age (36h, 7d); esc cancels")
		}
	case "ip":
		if _, perr := netip.ParseAddr(v); v != "" && perr != nil {
			err = fmt.Errorf("%q is not an address (like 10.1.2.3 or 2001:db8::1); esc cancels", v)
		}
	}
	if err != nil {
		m.promptErr = err.Error()
		m.input.Focus() // keep editing: the value is wrong, not abandoned
		return nil
	}
	m.prompt, m.promptErr = "", ""
	switch what {
	case "time":
		return m.jump(at)
	case "user":
		m.filter.User = v
	case "ip":
		m.filter.IP = v
	case "type":
		m.filter.Type = v
	}
	return m.refilter()
}

// withPrompt puts the open prompt on the body's last lines: the input, and
// under it why the value typed was not taken.
func (m *Model) withPrompt(body string) string {
	if m.prompt == "" {
		return body
	}
	tail := []string{m.input.View()}
	if m.promptErr != "" {
		// wrapped, not cut: the value typed is at the sentence's end
		for _, l := range strings.Split(ansi.Wrap(sanitize.Line(m.promptErr), max(m.Width, 1), ""), "\n") {
			tail = append(tail, m.env.Theme.Error.Render(l))
		}
	}
	lines := strings.Split(body, "\n")
	for len(lines) < max(m.Height-m.TableView.Header, len(tail)) {
		lines = append(lines, "")
	}
	return strings.Join(append(lines[:len(lines)-len(tail)], tail...), "\n")
}

func (m *Model) pickerView() string {
	th := m.env.Theme
	lines := []string{"  log type (↑/↓, enter to apply, esc to cancel):"}
	h := max(m.Height-m.TableView.Header-1, 3)
	first := max(0, min(m.pickAt-h/2, len(m.picker)-h))
	for i := first; i < len(m.picker) && i < first+h; i++ {
		label := m.picker[i]
		if label == "" {
			label = "(all types)"
		}
		if i == m.pickAt {
			lines = append(lines, th.SelectedRow.Render("> "+label))
		} else {
			lines = append(lines, "  "+label)
		}
	}
	return strings.Join(lines, "\n")
}
