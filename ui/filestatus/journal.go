package filestatus

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api"
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
}

// Target routes the message to the view that asked.
func (m journalMsg) Target() page.ID { return m.View }

// loadJournal reads the journal: the tracked files when tracked, else the
// upload times of ids.
func loadJournal(st *store.Store, profile string, view page.ID, tracked bool, ids []string) tea.Cmd {
	return func() tea.Msg {
		var rows []store.JournalFile
		// Once per view opened: a damaged journal is said, with what to do
		// with the file, rather than read as fewer files or as a bare
		// SQLite error.
		err := st.CheckJournal()
		switch {
		case err != nil:
		case tracked:
			rows, err = st.TrackedFiles(profile)
		default:
			rows, err = st.FilesByID(profile, ids)
		}
		msg := journalMsg{View: view, Tracked: tracked, Times: map[string]time.Time{}, Err: err}
		for _, f := range rows {
			msg.IDs = append(msg.IDs, f.FileID)
			msg.Times[strings.ToLower(f.FileID)] = f.UploadedAt
		}
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
		if len(msg.IDs) == 0 {
			m.openPaste()
			return page.Status("the upload journal has no file still processing; paste file IDs")
		}
		m.pasting = false
		m.paste.Blur()
		m.tr.add(msg.IDs)
		m.tr.setUploaded(msg.Times)
		return tea.Batch(m.rebuild(m.env.Clock()), m.startPoll(false),
			page.Status(plural(len(msg.IDs), "file")+" from the upload journal"))
	}
	m.tr.setUploaded(msg.Times)
	return m.rebuild(m.env.Clock())
}

// saveStatuses records a poll's answers in the journal (only rows the
// journal holds change).
func (m *Model) saveStatuses(details []api.FileDetail) tea.Cmd {
	st := m.env.Journal
	if st == nil || len(details) == 0 {
		return nil
	}
	status := make(map[string]string, len(details))
	for _, d := range details {
		switch {
		case d.Error == "not_found":
			status[d.FileID] = "not_found"
		case !d.Failed():
			status[d.FileID] = strings.ToLower(string(d.ProcessingStatus))
		}
	}
	return func() tea.Msg {
		if err := st.SetFileStatuses(status); err != nil {
			return page.StatusMsg{Err: err}
		}
		return nil
	}
}
