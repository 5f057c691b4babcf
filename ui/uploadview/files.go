package uploadview

// The finished upload's files (issue 42): once the upload is done, the
// page shows every file of its run with its result, as `vaultdeck uploads
// RUN` lists them (upload.RunResult's words: uploaded, renamed, replaced,
// skipped, refused, failed, not sent, unproven; deleted, gone or unknown
// after an undo, which job and when), read from the journal in
// a command when the task ends and again after an undo. C says that
// command; e writes the records (ui/csvsafe/records.RunFile) its --csv
// writes too.

import (
	"fmt"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/sanitize"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// runFilesMsg is the journal's files of the run, for the page that asked.
type runFilesMsg struct {
	View  page.ID
	Run   int64
	Files []store.JournalFile
	// Undone is what the run's undos (delete jobs) did to its files since
	Undone *upload.Undone
	Err    error
}

// Target routes the files to the page that asked.
func (m runFilesMsg) Target() page.ID { return m.View }

// fileColumns are the table's: `uploads RUN`'s, in its order.
func fileColumns() []widgets.Column {
	return []widgets.Column{
		{Title: "path", Width: 20, Min: 10, Grow: 2, Priority: 3, Elide: widgets.ElideMiddle},
		{Title: "result", Width: 11, Priority: 2}, // a word: never cut
		{Title: "detail", Width: 20, Min: 8, Grow: 2, Priority: 1},
		{Title: "local file", Width: 20, Grow: 1, Priority: 0, Elide: widgets.ElideMiddle},
	}
}

// loadRunFiles reads the run's files from the journal (IO: a command).
func loadRunFiles(st *store.Store, view page.ID, run int64) tea.Cmd {
	if st == nil || run == 0 {
		return nil
	}
	return func() tea.Msg {
		files, err := st.RunFiles(run)
		if err != nil {
			return runFilesMsg{View: view, Run: run, Err: err}
		}
		undone, err := upload.ReadUndone(st, run, files)
		return runFilesMsg{View: view, Run: run, Files: files, Undone: undone, Err: err}
	}
}

// filesRun is the run whose files the page lists: an upload's one run (a
// run refused before it was journaled has none).
func (m *Model) filesRun() int64 {
	if o := m.shared.outcome(); len(o.RunIDs) == 1 {
		return o.RunIDs[0]
	}
	return 0
}

// onRunFiles fills the table; a file not simply uploaded is toned.
func (m *Model) onRunFiles(msg runFilesMsg) tea.Cmd {
	if msg.Err != nil {
		m.filesErr = "the run's files could not be read from the journal: " + sanitize.Line(msg.Err.Error())
		return nil
	}
	m.run, m.files, m.undone, m.filesErr = msg.Run, msg.Files, msg.Undone, ""
	rows := make([]widgets.Row, len(msg.Files))
	for i := range msg.Files {
		f := &msg.Files[i]
		word, detail, _ := upload.RunResult(*f, msg.Undone)
		tone := widgets.ToneWarn
		if word == "uploaded" {
			tone = widgets.ToneNone
		}
		rows[i] = widgets.Row{ID: strconv.FormatInt(f.ID, 10),
			Cells: []string{sanitize.Line(records.RunPath(f)), word, sanitize.Line(detail), sanitize.Line(f.Local)},
			Tones: []widgets.Tone{widgets.ToneNone, tone, widgets.ToneNone, widgets.ToneNone}}
	}
	m.fitTable()
	return m.table.SetRows(rows)
}

// Query implements page.Querier: `uploads RUN` once the run's files are
// shown; nothing before (the dialog and the progress list nothing).
func (m *Model) Query() page.Query {
	if m.stage != stageDone || m.run == 0 {
		return page.Query{}
	}
	q := page.Query{Command: []string{"uploads", fmt.Sprint(m.run)}}
	m.table.SayExact(&q, -1, false, m.ExportTable()) // a / filter or sort as --filter, --sort when exact
	return q
}

// Exports: e writes the table once the run's files are shown.
func (m *Model) Exports() bool { return m.stage == stageDone && m.run != 0 }

// ExportTable is what e writes: the rows as shown (filtered, sorted), as
// the run's file records.
func (m *Model) ExportTable() widgets.TableExport {
	shown := m.table.Export()
	recs := make(map[string][]string, len(m.files))
	for i := range m.files {
		recs[strconv.FormatInt(m.files[i].ID, 10)] = records.RunFile(&m.files[i], m.undone)
	}
	return shown.Records(records.RunFileHeader(), func(i int) []string { return recs[shown.IDOf(i)] })
}
