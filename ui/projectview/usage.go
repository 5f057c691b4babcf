package projectview

// The project's use of its limits (issue 44): one get_metadata when the
// page opens (and on r), shown in the head as "files 950/1000 · 4.2/5 GB".
// Not known (the call failed or is not answered yet), the head keeps the
// listing's file count and says nothing of limits.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/dustin/go-humanize"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

type metaLoaded = page.Result[*api.ProjectMetadata]

func (m *Model) loadMeta() tea.Cmd {
	tag, ctx := m.meta.Start(m.env.Context(), m.id)
	be, id := m.env.Backend, m.proj.ID
	return page.Fetch(ctx, tag, "metadata", func(ctx context.Context) (*api.ProjectMetadata, error) {
		return be.GetMetadata(ctx, id)
	})
}

func (m *Model) metaArrived(msg metaLoaded) {
	if !m.meta.Current(msg.Tag) {
		return
	}
	if msg.Err != nil {
		m.usage = nil // unknown: the head says nothing of limits
		return
	}
	m.usage = msg.Value
}

// Usage is the head's part for a project's metadata: "files 950/1000 ·
// 4.2/5 GB", each half left out when its numbers are not ones the
// interface can mean; "" when neither is.
func Usage(md *api.ProjectMetadata) string {
	if md == nil {
		return ""
	}
	var parts []string
	if md.FileCount.Valid() && md.MaxFileCount.Valid() && md.MaxFileCount > 0 {
		parts = append(parts, fmt.Sprintf("files %d/%d", int64(md.FileCount), int64(md.MaxFileCount)))
	}
	if md.ProjectSize.Valid() && md.MaxProjectSize.Valid() && md.MaxProjectSize > 0 {
		parts = append(parts, sizePair(int64(md.ProjectSize), int64(md.MaxProjectSize)))
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return parts[0] + " · " + parts[1]
}

// sizePair is "4.2/5 GB": both in the unit of the limit, so the two read
// against each other.
func sizePair(used, limit int64) string {
	unit, div := "B", 1.0
	for _, u := range []struct {
		name string
		n    float64
	}{{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}} {
		if float64(limit) >= u.n {
			unit, div = u.name, u.n
			break
		}
	}
	f := func(n int64) string {
		return strconv.FormatFloat(float64(n)/div, 'f', -1, 64)
	}
	if div > 1 {
		f = func(n int64) string {
			return strings.TrimSuffix(strconv.FormatFloat(float64(n)/div, 'f', 1, 64), ".0")
		}
	}
	if used > 0 && float64(used)/div < 0.1 {
		// far below the limit's unit: "76 MB/500 GB", not "0/500 GB"
		return humanize.Bytes(uint64(used)) + "/" + f(limit) + " " + unit
	}
	return f(used) + "/" + f(limit) + " " + unit
}
