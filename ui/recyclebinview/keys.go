package recyclebinview

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// The page's keys: the open input or detail takes them first, then the
// table's filter, then the page's own commands.

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := m.env.Keys
	if m.matter != nil {
		return m.updateMatter(msg)
	}
	if m.detail != nil {
		return m.detailKey(msg)
	}
	if m.Table.Filtering() {
		return m.Table.Update(msg)
	}
	switch {
	case key.Matches(msg, k.Back) && !m.Table.WantsEsc() && m.grouped:
		m.toggleGroups()
		return nil
	case key.Matches(msg, k.Back) && !m.Table.WantsEsc() && m.deleter != "":
		return m.closeDeleter()
	case key.Matches(msg, k.Back) && !m.Table.WantsEsc() && m.query.ClientMatterID != "":
		return m.filterByMatter("")
	case key.Matches(msg, k.Back) && !m.Table.WantsEsc() && m.query.Name != "":
		m.query.Name = "" // a saved view's --name: the whole bin again
		m.state = page.LoadState{}
		return tea.Batch(m.apply(prepared{}), m.load())
	case key.Matches(msg, k.Enter) && m.grouped:
		return m.openDeleter()
	case key.Matches(msg, k.Enter):
		m.openDetail()
		if m.detail != nil {
			return m.deletionEvidence(*m.detail)
		}
		return nil
	case key.Matches(msg, k.AuditAround):
		return m.auditAround()
	case key.Matches(msg, k.Person):
		if e := m.selected(); e != nil {
			return page.OpenPerson(e.DeletedByUserEmail)
		}
		return nil
	case key.Matches(msg, k.PurgingSoon):
		return m.toggleSoon()
	case key.Matches(msg, k.ByDeleter):
		m.toggleGroups()
		return nil
	case key.Matches(msg, k.Refresh):
		return m.load()
	case key.Matches(msg, k.MatterFilter):
		m.matter = &widgets.Input{Prompt: "client-matter UUID (empty clears): ", PromptStyle: m.env.Theme.Input, CursorStyle: m.env.Theme.TextCursor, CharLimit: 36}
		m.matter.SetValue(m.query.ClientMatterID)
		m.matter.Focus()
		return nil
	}
	return m.Table.Update(msg)
}

func (m *Model) updateMatter(msg tea.KeyMsg) tea.Cmd {
	switch m.matter.Edit(msg) {
	case widgets.Cancelled:
		m.matter = nil
		return nil
	case widgets.Submitted:
		v := strings.TrimSpace(m.matter.Value())
		if v != "" && !api.IsUUID(v) {
			m.matter.Focus() // keep editing: the value is wrong, not abandoned
			return page.Error(fmt.Errorf("%q is not a client-matter UUID (like 123e4567-e89b-12d3-a456-426614174000)", v))
		}
		m.matter = nil
		return m.filterByMatter(v)
	}
	return nil
}

// filterByMatter asks the server for the bin of one client matter ("" for
// all of them).
func (m *Model) filterByMatter(id string) tea.Cmd {
	if id == m.query.ClientMatterID {
		return nil
	}
	m.query.ClientMatterID = id
	// the old rows do not answer the new filter: none are shown until it has
	m.state = page.LoadState{}
	return tea.Batch(m.apply(prepared{}), m.load())
}
