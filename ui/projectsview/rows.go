// Package projectsview is the workspace project list: paged from the server as
// the cursor nears the end, filtered by name on the server, cached between
// visits to spare the vault budget.
package projectsview

import (
	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Column indexes.
const (
	ColName = iota
	ColFiles
	ColSize
	ColCreated
	ColCreator
	ColKB
)

// Columns of the project table.
func Columns() []widgets.Column {
	return []widgets.Column{
		{Title: "name", Width: 20, Min: 10, Grow: 3, Priority: 3, Elide: widgets.ElideMiddle},
		// the counts stay beside a name (priority 1); the date and the
		// flag go first, before a name is cut (widgets.layoutWidths)
		{Title: "files", Width: 6, Align: widgets.AlignRight, Numeric: true, Priority: 1},
		{Title: "size", Width: 9, Align: widgets.AlignRight, Numeric: true, Priority: 1},
		{Title: "created", Width: 10, Min: 5, Numeric: true, Elide: widgets.ElideDate, ExportTitle: "created (UTC)"},
		{Title: "creator", Width: 14, Min: 8, Grow: 2, Priority: 2, Elide: widgets.ElideEmail},
		// knowledge-base projects, not kilobytes: the file says so in full
		{Title: "kbase", Width: 5, ExportTitle: "knowledge base"},
		{Title: "project id", ExportOnly: true, RowID: true},
	}
}

// Rows turns projects into table rows.
func Rows(ps []api.Project) []widgets.Row {
	rows := make([]widgets.Row, len(ps))
	for i, p := range ps {
		kb := ""
		if p.IsKnowledgeBaseProject {
			kb = "✓"
		}
		created := "-"
		switch {
		case p.CreatedAt.Invalid():
			created = "invalid"
		case !p.CreatedAt.IsZero():
			created = p.CreatedAt.UTC().Format("2006-01-02")
		}
		rows[i] = widgets.Row{
			ID: p.ID,
			Cells: []string{
				sanitize.Line(p.Name),
				p.FilesCount.String(),
				sizeText(p.SizeBytes),
				created,
				sanitize.Line(p.CreatorEmail),
				kb,
			},
			Nums: []float64{0, float64(p.FilesCount), float64(p.SizeBytes), float64(p.CreatedAt.Unix()), 0, 0},
		}
	}
	return rows
}

// sizeText is a byte count for people, "invalid" when the service sent
// one no size can be (never 0 B, never wrapped).
func sizeText(n api.Int) string {
	if !n.Valid() {
		return n.String()
	}
	return humanize.Bytes(uint64(n))
}
