package accessview

import (
	"fmt"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/access"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Row builders: plain functions from the snapshot's records to table rows,
// every server string passed through sanitize.Line.

// Column indexes of the people table.
const (
	ColName = iota
	ColEmail
	ColProjects
	ColManage
)

// PeopleColumns are the columns of the people tab.
func PeopleColumns() []widgets.Column {
	return []widgets.Column{
		{Title: "NAME", Width: 14, Min: 8, Grow: 3, Priority: 3, Elide: widgets.ElideMiddle},
		{Title: "EMAIL", Width: 28, Min: 10, Grow: 1, Priority: 2, Elide: widgets.ElideEmail},
		// the reach is what the tab is read for: it stays beside a name
		{Title: "PROJECTS", Width: 8, Align: widgets.AlignRight, Numeric: true, Priority: 1},
		{Title: "MANAGE", Width: 6, Align: widgets.AlignRight, Numeric: true, Priority: 1},
	}
}

// PersonRow is one person with their project counts.
func PersonRow(p access.Person) widgets.Row {
	return widgets.Row{
		ID:    strings.ToLower(p.Email),
		Cells: []string{sanitize.Line(p.Name), sanitize.Line(p.Email), fmt.Sprint(p.Projects), fmt.Sprint(p.Manage)},
		Nums:  []float64{0, 0, float64(p.Projects), float64(p.Manage)},
	}
}

// GrantColumns are the columns of one person's projects.
func GrantColumns() []widgets.Column {
	return []widgets.Column{
		{Title: "PROJECT", Width: 20, Min: 10, Grow: 3, Priority: 3, Elide: widgets.ElideMiddle},
		{Title: "ACCESS", Width: 6, Priority: 2},
		{Title: "PROJECT ID", Width: 36, Priority: 1, ID: true},
	}
}

// GrantRow is one project a person can reach.
func GrantRow(g store.AccessGrant) widgets.Row {
	tone := widgets.ToneNone
	if strings.EqualFold(g.AccessLevel, access.LevelManage) {
		tone = widgets.ToneWarn
	}
	return widgets.Row{
		ID:    g.ProjectID,
		Cells: []string{sanitize.Line(g.ProjectName), sanitize.Line(g.AccessLevel), sanitize.Line(g.ProjectID)},
		Tones: []widgets.Tone{widgets.ToneNone, tone, widgets.ToneMuted},
	}
}

// ChangeColumns are the columns of the changes tab.
func ChangeColumns() []widgets.Column {
	return []widgets.Column{
		{Title: "CHANGE", Width: 7, Priority: 2},
		{Title: "EMAIL", Width: 28, Min: 10, Grow: 1, Priority: 3, Elide: widgets.ElideEmail}, // who: what a reviewer acts on, kept whole first
		{Title: "PROJECT", Width: 16, Min: 10, Grow: 3, Priority: 3, Elide: widgets.ElideMiddle},
		{Title: "FROM", Width: 6, Priority: 1},
		{Title: "TO", Width: 6, Priority: 1},
		{Title: "PROJECT ID", ExportOnly: true, RowID: true},
	}
}

// ChangeRow is one grant gained, lost or changed.
func ChangeRow(c access.Change) widgets.Row {
	tone := map[string]widgets.Tone{access.Gained: widgets.ToneOK, access.Lost: widgets.ToneAlarm, access.Changed: widgets.ToneWarn}[c.Kind]
	return widgets.Row{
		ID:    c.ProjectID,
		Cells: []string{c.Kind, sanitize.Line(c.Email), sanitize.Line(c.ProjectName), sanitize.Line(c.From), sanitize.Line(c.To)},
		Tones: []widgets.Tone{tone},
	}
}

func rows[T any](list []T, row func(T) widgets.Row) []widgets.Row {
	out := make([]widgets.Row, len(list))
	for i, x := range list {
		out[i] = row(x)
	}
	return out
}
