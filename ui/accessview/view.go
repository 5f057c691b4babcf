package accessview

import (
	"errors"
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

const whenLayout = "2006-01-02 15:04 UTC"

// View implements page.Page.
func (m *Model) View() string {
	head := strings.Join(m.headLines(), "\n")
	if m.data == nil || m.err != nil {
		return head
	}
	return head + "\n" + m.Table.View()
}

// SetSize implements page.Page.
func (m *Model) SetSize(w, h int) {
	m.TableView.SetSize(w, h)
	m.fitHeader()
}

// fitHeader gives the table what the head lines leave when they wrap.
func (m *Model) fitHeader() {
	if n := len(m.headLines()); n != m.TableView.Header && m.Height > 0 {
		m.TableView.Header = n
		m.TableView.SetSize(m.Width, m.Height)
	}
}

// headLines say which snapshot is shown, its counts, and for the changes
// tab what they are from; numbers wrap rather than being cut (widgets.Fit).
func (m *Model) headLines() []string {
	th := m.env.Theme
	var parts []widgets.Part
	switch {
	case m.data == nil && m.err == nil:
		parts = append(parts, widgets.Deco(th.Title.Render("Access")), widgets.Keep(th.Muted.Render("reading the snapshot…")))
	case errors.Is(m.err, access.ErrNoSnapshot):
		parts = append(parts, widgets.Deco(th.Title.Render("Access")), widgets.Keep("no finished snapshot yet: "+m.env.ChoreHint(page.ChoreCrawlAccess)))
	case m.err != nil:
		parts = append(parts, widgets.Deco(th.Title.Render("Access")), widgets.Keep(th.Error.Render(sanitize.Line(m.err.Error()))))
	case m.tab == tabPerson:
		p := m.person
		parts = append(parts, widgets.Deco(th.Title.Render(sanitize.Line(p.Name))), widgets.Keep(sanitize.Line(p.Email)),
			widgets.Keep(plural.Count(p.Projects, "project")), widgets.Keep(fmt.Sprintf("%d MANAGE", p.Manage)),
			widgets.Deco(th.Muted.Render(fmt.Sprintf("snapshot %d", m.data.snap.ID))))
	case m.tab == tabChanges:
		parts = append(parts, widgets.Deco(th.Title.Render("Access changes")))
		if m.data.prev == nil {
			parts = append(parts, widgets.Keep(fmt.Sprintf("one snapshot so far (%d): changes show after the next crawl", m.data.snap.ID)))
			if m.env.Chores.Has(page.ChoreCrawlAccess) {
				parts = append(parts, widgets.Keep(m.env.ChoreHint(page.ChoreCrawlAccess)))
			}
			break
		}
		n := map[string]int{}
		for _, c := range m.data.changes {
			n[c.Kind]++
		}
		parts = append(parts, widgets.Keep(fmt.Sprintf("snapshot %d → %d", m.data.prev.ID, m.data.snap.ID)),
			widgets.Keep(fmt.Sprintf("%d gained", n[access.Gained])), widgets.Keep(fmt.Sprintf("%d lost", n[access.Lost])),
			widgets.Keep(fmt.Sprintf("%d changed", n[access.Changed])),
			widgets.Deco(th.Muted.Render("finished "+m.data.snap.FinishedAt.UTC().Format(whenLayout))))
	default:
		s := m.data.snap
		parts = append(parts, widgets.Deco(th.Title.Render("Access")), widgets.Keep(fmt.Sprintf("snapshot %d", s.ID)),
			widgets.Keep(plural.Count(len(m.data.people), "person", "people")), widgets.Keep(plural.Count(s.Projects, "project")),
			widgets.Keep(plural.Count(s.Grants, "grant")))
		if m.data.prev != nil {
			parts = append(parts, widgets.Keep(fmt.Sprintf("%s since snapshot %d", plural.Count(len(m.data.changes), "change"), m.data.prev.ID)))
		}
		parts = append(parts, widgets.Deco(th.Muted.Render("finished "+s.FinishedAt.UTC().Format(whenLayout))))
	}
	if m.data != nil && m.data.crawling != nil {
		c := m.data.crawling
		parts = append(parts, widgets.Keep(th.Warn.Render(fmt.Sprintf("crawl under way: %d/%s", c.Read+c.Carried, plural.Count(c.Projects, "project")))))
	}
	return widgets.Fit(m.Width, parts...)
}
