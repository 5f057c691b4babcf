package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/purge"
)

// binOptions is what `recycle-bin` was asked: a plain struct, so the
// command's logic does not depend on how flags are parsed.
type binOptions struct {
	Name         string
	ClientMatter string
	// Within, when set, keeps only entries purged within it of now
	// (overdue ones too); Check makes the listing a monitoring probe.
	Within time.Duration
	Check  bool
	// DeletedBy keeps the entries deleted by this e-mail (exactly, as the
	// console's deleter filter does).
	DeletedBy string
}

// now is the machine's time (the console's countdown uses the same), or
// the injected clock's.
func (r *runner) now() time.Time {
	if r.env.Clock != nil {
		return r.env.Clock.Now()
	}
	return time.Now()
}

// listRecycleBin streams the listing: with --json each entry is printed as
// it arrives (the server's own bytes, never decoded but for the purge
// window's field), and with --csv each record (the shown fields decoded,
// api.DecodeListed), so memory stays flat however large the bin. The table
// keeps its rows (as text) to align and order them: newest deletion first,
// the console's order, or with a purge window soonest purge first; what it
// holds is bounded (api.Held), and past the bound it names the streaming
// ways.
func (r *runner) listRecycleBin(ctx context.Context, o binOptions) int {
	c, err := r.client()
	if err != nil {
		return r.probeFailed(o, err)
	}
	p := r.listProgress()
	defer p.done()
	fail := func(err error) int { p.done(); return r.probeFailed(o, err) } // the error line replaces the count
	ctx = api.WithWaitObserver(ctx, p.observe)
	q := api.RecycleBinQuery{Name: o.Name, ClientMatterID: o.ClientMatter}
	now := r.now()
	keep := func(e *api.RecycleBinEntry) (bool, bool) {
		if o.DeletedBy != "" && e.DeletedByUserEmail != o.DeletedBy {
			return false, false
		}
		if o.Within == 0 {
			_, overdue := purge.Within(e.RecycleBinPurgedScheduledAt.Time, now, 0)
			return true, overdue
		}
		return purge.Within(e.RecycleBinPurgedScheduledAt.Time, now, o.Within)
	}
	if r.jsonOut() { // each entry's own bytes: decoded only for the purge window
		iw := r.items(`{"items":[`)
		sum, err := c.RecycleBin(q).Raw(ctx, func(it api.RawItem) error {
			p.item()
			if o.DeletedBy != "" { // the shown fields, the deleter among them
				var e api.RecycleBinEntry
				if err := api.DecodeListed(it.Bytes, &e); err != nil {
					return err
				}
				if in, _ := keep(&e); !in {
					return nil
				}
			} else if o.Within > 0 {
				at, err := api.DecodePurge(it.Bytes)
				if err != nil {
					return err
				}
				if in, _ := purge.Within(at.Time, now, o.Within); !in {
					return nil
				}
			}
			return iw.raw(it)
		}, nil)
		if err != nil {
			return fail(afterItems(err, iw.n))
		}
		total := sum.Total
		if o.Within > 0 || o.DeletedBy != "" {
			total = api.Int(iw.n) // the entries kept, not the bin's
		}
		return r.done(iw.close(fmt.Sprintf(`],"total":%d}`, int64(total))))
	}
	headers := []string{"NAME", "PROJECT ID", "FILES", "DELETED", "PURGE SCHEDULED", "PURGE IN", "DELETED BY"}
	cells := func(e *api.RecycleBinEntry) []string {
		purgeIn, _ := purge.Countdown(e.RecycleBinPurgedScheduledAt.Time, now)
		return []string{e.VaultProject.Name, e.ResourceID, strconv.FormatInt(int64(e.VaultProject.FilesCount), 10),
			r.atAPI(e.DeletedAt), r.atAPI(e.RecycleBinPurgedScheduledAt), purgeIn, e.DeletedByUserEmail}
	}
	if r.g.CSV { // records as they come, in the service's order: nothing held
		t, n := r.table(headers...), 0
		var e api.RecycleBinEntry
		_, err := c.RecycleBin(q).Raw(ctx, func(it api.RawItem) error {
			p.item()
			if err := api.DecodeListed(it.Bytes, &e); err != nil { // the shown fields only
				return err
			}
			if in, _ := keep(&e); in {
				n++
				t.row(cells(&e)...)
			}
			return nil
		}, nil)
		if ferr := t.flush(); err == nil {
			err = ferr
		}
		if err != nil {
			return fail(afterItems(err, n))
		}
		return ExitOK
	}
	type binRow struct {
		deleted, purge time.Time
		cells          []string
	}
	var rows []binRow
	var held api.Held // the table sorts, so it holds its rows: bounded in count and bytes
	overdue := 0
	var e api.RecycleBinEntry
	sum, err := c.RecycleBin(q).Raw(ctx, func(it api.RawItem) error {
		p.item()
		if err := api.DecodeListed(it.Bytes, &e); err != nil { // the shown fields only
			return err
		}
		in, late := keep(&e)
		if !in {
			return nil
		}
		if err := held.Add(len(it.Bytes)); err != nil {
			return err
		}
		if late {
			overdue++
		}
		rows = append(rows, binRow{e.DeletedAt.Time, e.RecycleBinPurgedScheduledAt.Time, cells(&e)})
		return nil
	}, nil)
	if err != nil {
		return fail(err)
	}
	total := sum.Total
	if o.Within > 0 { // soonest purge first: what needs a decision comes first
		slices.SortStableFunc(rows, func(a, b binRow) int { return a.purge.Compare(b.purge) })
	} else {
		slices.SortStableFunc(rows, func(a, b binRow) int { return b.deleted.Compare(a.deleted) }) // undated (zero) last
	}
	p.done()
	if o.Check {
		io.WriteString(r.env.Stdout, purgeSummary(len(rows), overdue, o.Within)+"\n")
	}
	if err := writeAligned(r.env.Stdout, len(rows)+1, func(i int) []string {
		if i == 0 {
			return headers
		}
		return rows[i-1].cells
	}); err != nil {
		return fail(err)
	}
	fmt.Fprintln(r.env.Stdout, binFooter(len(rows), overdue, int64(total), o.Within))
	if o.Check && len(rows) > 0 {
		return ExitPartial
	}
	return ExitOK
}

// binFooter is the count line under the table.
func binFooter(n, overdue int, total int64, within time.Duration) string {
	if within == 0 {
		return fmt.Sprintf("%d of %d shown", n, total)
	}
	return fmt.Sprintf("%d of %d purge within %s (%d overdue)", n, total, purge.FormatWindow(within), overdue)
}

// purgeSummary is the probe's first line in the Nagios plugin format
// (status text, then performance data after a |), which Nagios, Icinga and
// cron mail read as is.
func purgeSummary(n, overdue int, within time.Duration) string {
	w := purge.FormatWindow(within)
	perf := fmt.Sprintf(" | purging=%d;;; overdue=%d;;;", n, overdue)
	if n == 0 {
		return "PURGE OK - no project purges within " + w + perf
	}
	return fmt.Sprintf("PURGE WARNING - %s %s within %s (%d overdue)%s", plural.Count(n, "project"), plural.Verb(n, "purges", "purge"), w, overdue, perf)
}

// probeFailed reports an error; a probe also says UNKNOWN on stdout, the
// line a monitoring agent reads.
func (r *runner) probeFailed(o binOptions, err error) int {
	if o.Check {
		fmt.Fprintf(r.env.Stdout, "PURGE UNKNOWN - the recycle bin could not be read: %s\n", oneLine(err.Error()))
	}
	return r.fail(err)
}
