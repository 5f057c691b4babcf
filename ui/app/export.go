package app

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// tableExporter is a page whose table can be written as shown
// (widgets.TableView gives it to every list page).
type tableExporter interface {
	ExportTable() widgets.TableExport
}

// exportsNow is a table exporter that shows its table in some modes only
// (:matters: not while a file path is typed or a run goes on).
type exportsNow interface{ Exports() bool }

// exporter is top's table to export, when it shows one now.
func exporter(top page.Page) (tableExporter, bool) {
	ex, ok := top.(tableExporter)
	if g, gated := top.(exportsNow); ok && gated && !g.Exports() {
		return nil, false
	}
	return ex, ok
}

// exportTop writes the top page's table, filtered and sorted as shown, to
// a new CSV file in the export directory (the working directory unless
// Config.ExportDir says otherwise) and says where. The rows are taken now;
// the file is written in a command, off the event loop.
func (m *Model) exportTop() tea.Cmd {
	top := m.Top()
	if d, ok := top.(page.Documenter); ok {
		if doc, ok := d.Document(); ok {
			return m.saveDocument(doc)
		}
	}
	ex, ok := exporter(top)
	if !ok {
		return page.Status("this view has no table to export")
	}
	snap := ex.ExportTable().Excel(m.cfg.Excel)
	dir, stem, now := m.cfg.ExportDir, fileStem(top.Title()), m.env.Clock()
	return func() tea.Msg {
		path, err := writeExport(dir, stem, "csv", now, snap.WriteCSV)
		if err != nil {
			return page.StatusMsg{Err: fmt.Errorf("the CSV export could not be written: %w", err)}
		}
		if dir == "" {
			path = "./" + filepath.Base(path) // the working directory: short enough for an 80-column status line
		}
		text := "wrote " + plural.Count(snap.Len(), "row") + " to " + path
		if n := snap.Note(); n != "" {
			text += "; " + n
		}
		return page.StatusMsg{Text: text}
	}
}

// saveDocument writes one record whole (the audit entry the detail pane
// draws in part) to a new file beside the CSV exports, as it was received.
func (m *Model) saveDocument(doc page.Document) tea.Cmd {
	dir, now := m.cfg.ExportDir, m.env.Clock()
	return func() tea.Msg {
		path, err := writeExport(dir, fileStem(doc.Stem), doc.Ext, now, func(w io.Writer) error {
			_, err := w.Write(doc.Body)
			return err
		})
		if err != nil {
			return page.StatusMsg{Err: fmt.Errorf("%s could not be saved: %w", doc.What, err)}
		}
		if dir == "" {
			path = "./" + filepath.Base(path)
		}
		return page.StatusMsg{Text: fmt.Sprintf("saved %s (%d KB) to %s", doc.What, (len(doc.Body)+1023)>>10, path)}
	}
}

// fileStem makes a view's title a file name part: letters, digits and
// dashes ("recycle bin" -> "recycle-bin").
func fileStem(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > 40 {
		s = strings.Trim(s[:40], "-")
	}
	if s == "" {
		s = "view"
	}
	return s
}

// writeExport creates vaultdeck-STEM-YYYYMMDD-HHMMSS.EXT in dir, never
// replacing a file (a second export in the same second gets -2, -3 …),
// readable by the user only (it holds workspace data), and removes it
// again if writing fails, so no half file is left looking complete.
func writeExport(dir, stem, ext string, now time.Time, write func(io.Writer) error) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		dir = wd
	}
	base := fmt.Sprintf("vaultdeck-%s-%s", stem, now.Format("20060102-150405"))
	var f *os.File
	var path string
	for i := 1; f == nil; i++ {
		name := base + "." + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d.%s", base, i, ext)
		}
		path = filepath.Join(dir, name)
		var err error
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil && (!errors.Is(err, os.ErrExist) || i >= 100) {
			return "", err
		}
	}
	w := bufio.NewWriterSize(f, 64<<10)
	err := write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", err
	}
	return path, nil
}
