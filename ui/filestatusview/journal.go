package filestatusview

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// The upload journal feeds this view: `:files` with no IDs opens the
// journal's files still being processed, every file's upload time there
// dates its age, and each poll's answers are written back so a file stops
// being tracked across restarts once it is ready or missing. All of it is
// store IO, so all of it runs in commands.

// journalMsg carries what the journal knows: IDs to track (tracked=true,
// for `:files` without IDs) and upload times.
type journalMsg struct {
	View    page.ID
	Tracked bool
	IDs     []string
	Times   map[string]time.Time
	Err     error
	// Tracked only: the journal's rows (paths, projects, and the files the
	// service never confirmed) and the project names the cache knows (the
	// server's strings: the tracker cleans them).
	Rows  []store.JournalFile
	Names map[string]string
}

// Target routes the message to the view that asked.
func (m journalMsg) Target() page.ID { return m.View }

// loadJournal reads the journal: when tracked, every unfinished file of
// the profile's runs across projects (filestatus.LoadUnfinished), with the
// project names of the cached listing; else the upload times of ids.
func loadJournal(st *store.Store, cache page.Cache, profile string, view page.ID, tracked bool, ids []string) tea.Cmd {
	return func() tea.Msg {
		msg := journalMsg{View: view, Tracked: tracked}
		if tracked {
			var body []byte
			if cache != nil {
				body, _, _ = cache.Get(person.CacheProjects) // an error only costs the names
			}
			u, err := filestatus.LoadUnfinished(st, profile, body)
			msg.Err, msg.Rows, msg.IDs, msg.Times, msg.Names = err, u.Rows, u.IDs, u.Times, u.Names
			return msg
		}
		// Once per view opened: a damaged journal is said, with what to do
		// with the file, rather than read as fewer files or as a bare
		// SQLite error.
		rows, err := []store.JournalFile(nil), st.CheckJournal()
		if err == nil {
			rows, err = st.FilesByID(profile, ids)
		}
		msg.Err = err
		msg.IDs, msg.Times = filestatus.Confirmed(rows)
		return msg
	}
}

// onJournal applies what the journal said.
func (m *Model) onJournal(msg journalMsg) tea.Cmd {
	if msg.Err != nil {
		if msg.Tracked {
			m.openPaste()
		}
		return page.Error(msg.Err)
	}
	if msg.Tracked {
		m.fromJournal = false
		if len(msg.Rows) == 0 {
			m.openPaste()
			return page.Status("the upload journal has no unfinished file; paste file IDs")
		}
		m.pasting = false
		m.paste.Blur()
		m.tr.AddUnfinished(filestatus.Unfinished{Rows: msg.Rows, IDs: msg.IDs, Times: msg.Times, Names: msg.Names})
		m.journalFiles = len(m.tr.Files)
		m.acrossProjects = true
		m.Table.SetColumns(m.layout())
		return tea.Batch(m.rebuild(m.env.Clock()), m.startPoll(false),
			page.Status(plural.Count(len(msg.Rows), "unfinished file")+" from the upload journal, across projects"))
	}
	m.tr.SetUploaded(msg.Times)
	return m.rebuild(m.env.Clock())
}

// saveStatuses records a poll's answers in the journal (only rows the
// journal holds change).
func (m *Model) saveStatuses(details []api.FileDetail) tea.Cmd {
	st := m.env.Journal
	if st == nil || len(details) == 0 {
		return nil
	}
	notes := upload.JournalDetails(details)
	return func() tea.Msg {
		if err := st.SetFileDetails(notes); err != nil {
			return page.StatusMsg{Err: err}
		}
		return nil
	}
}
