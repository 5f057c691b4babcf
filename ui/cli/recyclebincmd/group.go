package recyclebincmd

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/purge"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
)

// runByDeleter is `recycle-bin --by-deleter`: the bin grouped by who
// deleted, as the console's `b` shows it (purge.Grouper: one logic), most
// projects first; with --purging-within the entries within the window
// only, the count beside of the same window (default 7d). The walk holds
// one group a person, not the entries.
func runByDeleter(ctx context.Context, o *Options, c *api.Client, now time.Time) int {
	p, f := o.IO, o.Filter
	gr := purge.NewGrouper(f.Within)
	var repeats api.BinRepeats
	_, err := shownFields{c.RecycleBin(f.Query())}.Each(ctx, func(e *api.RecycleBinEntry, _ api.RawItem) error {
		if repeats.First(e) && f.Kept(e, now) {
			gr.Add(e, now)
		}
		return nil
	}, func() error { return nil })
	for _, line := range repeats.Said() {
		p.Note("%s", line)
	}
	if err != nil {
		return o.failed(err)
	}
	groups := gr.Groups()
	list := make([]api.Item[purge.Group], len(groups))
	for i, g := range groups {
		b, err := json.Marshal(g)
		if err != nil {
			return p.Fail(err)
		}
		list[i] = api.Item[purge.Group]{Value: g, JSON: b}
	}
	window := f.Within // the window the count is of
	if window == 0 {
		window = purge.Soon
	}
	header := records.GroupHeader(window)
	titles := make([]string, len(header))
	for i, h := range header {
		titles[i] = strings.ToUpper(h)
	}
	_, err = printer.List(ctx, p, printer.Items(list), printer.Listing[purge.Group]{
		Headers:    titles,
		Cells:      func(g *purge.Group) []string { return records.Group(g, now) },
		CSVHeaders: header,
		CSVCells:   func(g *purge.Group) []string { return records.Group(g, now) },
	})
	if err != nil {
		return p.Fail(err)
	}
	return printer.ExitOK
}
