// Package storecmd is `vaultdeck store`: the local database itself. check
// says whether the file is whole and what each table still gives; recover
// copies what can be read into a fresh file and keeps the damaged one
// aside. Both open the file read-only and never migrate it, so they work on
// a file the other commands refuse.
package storecmd

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/cli/cmdutil"
	"github.com/vaultdeck/vaultdeck/ui/cli/factory"
	"github.com/vaultdeck/vaultdeck/ui/cli/printer"
)

// Options are what a store command works with.
type Options struct {
	IO   *printer.Printer
	Path func() (string, error) // the database file
	Now  func() time.Time
	To   string // recover --to: write the copy there, leave the store
}

// NewCmdStore is `store` with check and recover.
func NewCmdStore(f *factory.Factory) *cobra.Command {
	o := &Options{IO: f.IO, Now: f.Now, Path: func() (string, error) {
		p, err := store.DefaultPaths(f.Getenv)
		return p.Database(), err
	}}
	c := &cobra.Command{Use: "store", Short: "the local database: check it, recover what a damaged one holds",
		Args: cmdutil.NoArgs, RunE: cmdutil.NeedSub}
	check := &cobra.Command{Use: "check", Short: "check the local database: whole or damaged, and the rows each table still gives",
		Args: cmdutil.NoArgs, RunE: cmdutil.Run(f, func(ctx context.Context, _ []string) int { return RunCheck(ctx, o) })}
	recover := &cobra.Command{Use: "recover", Short: "copy what can be read of the local database into a fresh file; the damaged one is kept aside, named",
		Long: "recover reads every table of the database as far as it can (a damaged page costs the rows on it), writes them into a " +
			"fresh file made by this vaultdeck's schema, then puts that file in the database's place and keeps the damaged one " +
			"(with its log and index, vaultdeck.db-wal and vaultdeck.db-shm) beside it as vaultdeck.db.damaged-TIME. Nothing is moved until the copy is complete and on " +
			"disk. A vaultdeck still running on the old file stops before its next request. With --to FILE the copy is written " +
			"there and the database is left as it is (a consistent copy while vaultdeck runs).",
		Args: cmdutil.NoArgs, RunE: cmdutil.Run(f, func(ctx context.Context, _ []string) int { return RunRecover(ctx, o) })}
	recover.Flags().StringVar(&o.To, "to", "", "write the copy to `FILE` (which must not exist) and leave the database where it is")
	c.AddCommand(check, recover)
	return c
}

// RunCheck reports what store.Inspect found; exit 1 when the file is damaged.
func RunCheck(ctx context.Context, o *Options) int {
	p := o.IO
	path, err := o.Path()
	if err != nil {
		return p.Fail(err)
	}
	in, err := store.Inspect(ctx, path)
	if err != nil {
		return p.Fail(err)
	}
	err = p.Show(printer.Result{
		JSON: func() (any, error) { return inspectionJSON(in), nil },
		Text: func(w io.Writer) error {
			state := "whole (integrity_check: ok)"
			if !in.Whole() {
				state = "damaged: " + plural.Count(len(in.Problems), "problem")
			}
			if _, err := fmt.Fprintf(w, "%s: %s, schema %s, %s\n", in.Path, size(in.Size), version(in.Version), state); err != nil {
				return err
			}
			for _, pr := range in.Problems {
				if _, err := fmt.Fprintf(w, "  %s\n", pr); err != nil {
					return err
				}
			}
			return tableRows(w, in.Tables, "READABLE ROWS")
		},
		Table: func(row func([]string) error) error { return csvRows(row, in.Tables) },
	})
	if err != nil {
		return p.Fail(err)
	}
	if !in.Whole() {
		p.Note("%s is damaged: `vaultdeck store recover` copies the rows above into a fresh file and keeps this one aside", path)
		return printer.ExitError
	}
	return printer.ExitOK
}

// RunRecover runs store.Recover; exit 3 when some rows could not be read
// (they are in the damaged file kept aside, not in the fresh one).
func RunRecover(ctx context.Context, o *Options) int {
	p := o.IO
	path, err := o.Path()
	if err != nil {
		return p.Fail(err)
	}
	rec, err := store.Recover(ctx, path, o.To, o.Now())
	if err != nil {
		return p.Fail(err)
	}
	var rows int64
	var lost []string
	for _, t := range rec.Tables {
		rows += t.Rows
		if t.Gaps > 0 || t.Stopped != "" {
			lost = append(lost, t.Name)
		}
	}
	summary := fmt.Sprintf("%s copied into %s (schema %d)", plural.Count(rows, "row"), rec.To, rec.Version)
	if rec.Aside != "" {
		summary += "; the damaged file is kept as " + rec.Aside
	}
	err = p.Show(printer.Result{
		JSON: func() (any, error) {
			return map[string]any{"from": rec.From, "to": rec.To, "aside": rec.Aside, "schema_version": rec.Version,
				"rows": rows, "unreadable_in": lost, "tables": tablesJSON(rec.Tables)}, nil
		},
		Text:    func(w io.Writer) error { return tableRows(w, rec.Tables, "ROWS COPIED") },
		Table:   func(row func([]string) error) error { return csvRows(row, rec.Tables) },
		Summary: summary,
	})
	if err != nil {
		return p.Fail(err)
	}
	if len(lost) > 0 {
		p.Note("some rows of %s could not be read and are not in the fresh file (the damaged one keeps them)", strings.Join(lost, ", "))
		return printer.ExitPartial
	}
	return printer.ExitOK
}

func tableRows(w io.Writer, tables []store.TableRows, rowsHeader string) error {
	return printer.Aligned(w, func(row func([]string)) error {
		row([]string{"TABLE", rowsHeader, "UNREADABLE"})
		for _, t := range tables {
			row([]string{t.Name, strconv.FormatInt(t.Rows, 10), unreadable(t)})
		}
		return nil
	})
}

func csvRows(row func([]string) error, tables []store.TableRows) error {
	if err := row([]string{"table", "rows", "unreadable"}); err != nil {
		return err
	}
	for _, t := range tables {
		if err := row([]string{t.Name, strconv.FormatInt(t.Rows, 10), unreadable(t)}); err != nil {
			return err
		}
	}
	return nil
}

func unreadable(t store.TableRows) string {
	var parts []string
	if t.Gaps > 0 {
		parts = append(parts, plural.Count(t.Gaps, "damaged stretch", "damaged stretches")+" skipped")
	}
	if t.Stopped != "" {
		parts = append(parts, t.Stopped)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

func inspectionJSON(in store.Inspection) map[string]any {
	problems := in.Problems
	if problems == nil {
		problems = []string{}
	}
	return map[string]any{"path": in.Path, "size_bytes": in.Size, "schema_version": in.Version, "whole": in.Whole(),
		"problems": problems, "tables": tablesJSON(in.Tables)}
}

func tablesJSON(tables []store.TableRows) []map[string]any {
	out := make([]map[string]any, len(tables))
	for i, t := range tables {
		out[i] = map[string]any{"table": t.Name, "rows": t.Rows, "damaged_stretches": t.Gaps, "stopped": t.Stopped}
	}
	return out
}

func version(v int) string {
	if v < 0 {
		return "unreadable"
	}
	return strconv.Itoa(v)
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return plural.Count(n, "byte")
}
