package filestatusview

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/vaultdeck/vaultdeck/api/filestatus"
	"github.com/vaultdeck/vaultdeck/api/person"
	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/upload"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// R: the selected (marked, else the cursor's) stuck or failed files are
// uploaded again from the local paths the journal recorded, with mode
// replace, as a task owned by the root; a confirmation names the count.
// When it ends, the view swaps the old IDs for the new ones.

// Reuploaded is broadcast when a re-upload finishes: old file ID -> new.
type Reuploaded struct {
	Replaced map[string]string
	At       time.Time
}

// reuploadRows carries the journal rows of the files to re-upload.
type reuploadRows struct {
	View  page.ID
	Asked int
	Rows  []store.JournalFile
	Err   error
}

// Target routes the rows to the view that asked.
func (m reuploadRows) Target() page.ID { return m.View }

func (m *Model) askReupload() tea.Cmd {
	ids := m.Table.MarkedIDs()
	if len(ids) == 0 {
		if id := m.SelectedID(); id != "" {
			ids = []string{id}
		}
	}
	now := m.env.Clock()
	var pick []string
	never := 0
	for _, id := range ids {
		i, ok := m.tr.Index(id)
		if !ok {
			continue
		}
		if m.tr.Files[i].Journal != "" {
			never++ // no file ID to replace: the service never confirmed it
			continue
		}
		switch m.tr.Files[i].Group(now, m.opts.StuckAfter) {
		case filestatus.Stuck, filestatus.FailedRecoverable, filestatus.FailedUnrecoverable:
			pick = append(pick, id)
		}
	}
	switch {
	case len(pick) == 0 && never > 0:
		return page.Status(plural.Count(never, "selected file") + " never confirmed by the service (not sent, upload failed or unproven): " +
			"`vaultdeck upload --resume` sends what was not sent; check the others in their project and upload them again")
	case len(pick) == 0:
		return page.Status("R re-uploads stuck or failed files: select one, or mark several with x")
	case m.env.Journal == nil:
		return page.Status("re-upload needs the upload journal, which this session does not have")
	}
	st, profile, view := m.env.Journal, m.env.DataProfile(), m.id
	return func() tea.Msg {
		rows, err := st.FilesByID(profile, pick)
		return reuploadRows{View: view, Asked: len(pick), Rows: rows, Err: err}
	}
}

func (m *Model) onReuploadRows(msg reuploadRows) tea.Cmd {
	if msg.Err != nil {
		return page.Error(msg.Err)
	}
	if len(msg.Rows) == 0 {
		return page.Status(noneUploadedHere(msg.Asked))
	}
	m.reupload = msg.Rows
	n := len(msg.Rows)
	text := reuploadQuestion(n, msg.Asked)
	m.confirm = widgets.NewConfirm(m.env.Theme, "Re-upload", text, strconv.Itoa(n)) // the dialog says what to type
	return nil
}

func (m *Model) confirmKey(msg tea.KeyMsg) tea.Cmd {
	switch m.confirm.Update(msg) {
	case widgets.Cancelled:
		m.confirm, m.reupload = nil, nil
		return page.Status("nothing was re-uploaded")
	case widgets.Confirmed:
		rows := m.reupload
		m.confirm, m.reupload = nil, nil
		if m.env.ReadOnly { // the key map already refuses; never mutate read-only
			return nil
		}
		return page.Start(ReuploadTask(m.env, m.id, rows))
	}
	return nil
}

// ReuploadTask re-uploads rows as a root-owned task.
func ReuploadTask(env page.Env, origin page.ID, rows []store.JournalFile) page.StartTask {
	jobs, st, profile, clock := env.Jobs, env.Journal, env.DataProfile(), env.Clock
	return page.StartTask{
		Name:   "re-upload " + plural.Count(len(rows), "file"),
		Origin: origin,
		// new versions replace the files (new IDs, sizes): the listings
		// that show them are wrong now, as after an upload, and a project
		// page below would keep the replaced rows and their marks
		Invalidates: []string{person.CacheProjects},
		Reloads:     []string{person.CacheProjects},
		Run: func(ctx context.Context, progress page.Progress) (page.Outcome, error) {
			if jobs == nil || jobs.Upload == nil {
				return page.Outcome{}, errors.New("this session cannot upload")
			}
			run := &upload.Runner{API: jobs.Upload, Store: st, Profile: profile, Progress: func(p upload.Progress) {
				progress(fmt.Sprintf("%d of %s", p.FilesDone, plural.Count(p.Files, "file")))
			}}
			out, replaced, err := run.Reupload(ctx, rows)
			done := page.Outcome{Text: "re-upload: " + out.Summary(), Broadcast: Reuploaded{Replaced: replaced, At: clock()}}
			if err == nil && len(out.Errors) > 0 {
				err = errors.New(strings.Join(out.Errors, "; "))
			}
			if err != nil && len(replaced) == 0 {
				return page.Outcome{}, err
			}
			if err != nil {
				done.Text += " · " + err.Error()
			}
			return done, nil
		},
	}
}

// onReuploaded swaps the replaced IDs for the new ones and polls them.
func (m *Model) onReuploaded(msg Reuploaded) tea.Cmd {
	var fresh []string
	times := map[string]time.Time{}
	old := map[string]bool{}
	where := map[string][2]string{} // new ID -> the old row's path and project
	for o, n := range msg.Replaced {
		i, ok := m.tr.Index(o)
		if !ok {
			continue
		}
		old[o] = true
		fresh = append(fresh, n)
		times[n] = msg.At
		where[n] = [2]string{m.tr.Files[i].Path, m.tr.Files[i].Project}
	}
	if len(fresh) == 0 {
		return nil
	}
	m.tr.Remove(old)
	m.tr.Add(fresh)
	m.tr.SetUploaded(times)
	for n, w := range where {
		i, _ := m.tr.Index(n)
		f := &m.tr.Files[i]
		f.Path, f.Project = w[0], w[1]
	}
	m.stopped = false
	cmds := []tea.Cmd{m.rebuild(m.env.Clock())}
	if !m.inFlight {
		cmds = append(cmds, m.startPoll(false))
	}
	return tea.Batch(cmds...)
}

// confirmView centres the dialog over the view.
func (m *Model) confirmView() string {
	return m.env.Theme.Renderer.Place(m.Width, m.Height, lipgloss.Center, lipgloss.Center, m.confirm.ViewSized(m.Width, m.Height))
}

// noneUploadedHere answers R on files none of which this machine's journal
// holds.
func noneUploadedHere(asked int) string {
	if asked == 1 {
		return "the selected file was not uploaded by vaultdeck here: no local path is known"
	}
	return fmt.Sprintf("none of the %s was uploaded by vaultdeck here: no local path is known", plural.Count(asked, "selected file"))
}

// reuploadQuestion is the re-upload dialog's question for n files of the
// asked, the others left out.
func reuploadQuestion(n, asked int) string {
	text := fmt.Sprintf("Re-upload %s from %s with mode replace (%s a new version)?", plural.Count(n, "stuck or failed file"),
		plural.Verb(n, "its local path", "their local paths"), plural.Verb(n, "it becomes", "each becomes"))
	if skipped := asked - n; skipped > 0 {
		text += " " + plural.Count(skipped, "selected file") + " " + plural.Verb(skipped, "is", "are") + " left out: no local path of " + plural.Verb(skipped, "it", "them") + " is journaled."
	}
	return text
}
