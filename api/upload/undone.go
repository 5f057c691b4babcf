package upload

// What the delete_file jobs (an undo of the run, the console's Files tab)
// did to a run's files since it uploaded them, so that the run's listing
// (`vaultdeck uploads RUN` in every format, the console's upload page, the
// run list's counts, the incident report) never calls a deleted file
// uploaded. Read from the jobs' items (state, outcome, when) and, for a
// file an undo did not send, the undo's own plan text (its "left" and
// "gone" lines, UndoText), which says why it left the file alone.

import (
	"fmt"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
)

// UndoneJournal is the store's side: the delete_file jobs and their items.
type UndoneJournal interface {
	WriteJobs(kinds ...string) ([]store.WriteJob, error)
	WriteJobItems(id int64) ([]store.WriteJobItem, error)
}

// Mark is what one job did to one file of the run.
type Mark struct {
	Job  int64
	Undo bool // the job is an undo of this run (UndoTag); else another deletion
	// State is the job item's (done, failed, in_flight, unknown, planned);
	// "" for a file the undo's plan named without sending it (Plan says
	// which line: left or gone, Why why).
	State, Outcome, Detail string
	Plan, Why              string
	At                     time.Time // done (or sent, while in flight); zero otherwise
}

// By names the job: "undo job 3", or "delete job 5" for a deletion that
// is not an undo of the run (the Files tab).
func (m *Mark) By() string {
	if m.Undo {
		return fmt.Sprintf("undo job %d", m.Job)
	}
	return fmt.Sprintf("delete job %d", m.Job)
}

// Undone is the marks of a run's files, by file ID; the zero value (or
// nil) marks nothing.
type Undone struct{ marks map[string]*Mark }

// UndoJobs are the delete_file jobs that undo run, newest first.
func UndoJobs(st UndoneJournal, run int64) ([]store.WriteJob, error) {
	jobs, err := st.WriteJobs(deletefile.Name)
	if err != nil {
		return nil, err
	}
	var out []store.WriteJob
	for _, j := range jobs {
		if strings.HasPrefix(j.Plan, UndoTag(run)) {
			out = append(out, j)
		}
	}
	return out, nil
}

// ReadUndone reads what the delete_file jobs did to files (a run's, from
// the journal). A job's item that settled (done) is final: a later job
// does not send it again. Otherwise the newest job's word stands.
func ReadUndone(st UndoneJournal, run int64, files []store.JournalFile) (*Undone, error) {
	ids := map[string]store.JournalFile{}
	for _, f := range files {
		if f.FileID != "" {
			ids[strings.ToLower(f.FileID)] = f
		}
	}
	u := &Undone{marks: map[string]*Mark{}}
	if len(ids) == 0 {
		return u, nil
	}
	jobs, err := st.WriteJobs(deletefile.Name)
	if err != nil {
		return nil, err
	}
	for i := len(jobs) - 1; i >= 0; i-- { // oldest first
		j := jobs[i]
		undo := strings.HasPrefix(j.Plan, UndoTag(run))
		items, err := st.WriteJobItems(j.ID)
		if err != nil {
			return nil, err
		}
		sent := map[string]bool{}
		for _, it := range items {
			id := strings.ToLower(it.Target)
			if _, ok := ids[id]; !ok {
				continue
			}
			sent[id] = true
			if old := u.marks[id]; old != nil && old.State == store.ItemDone {
				continue
			}
			m := &Mark{Job: j.ID, Undo: undo, State: it.State, Outcome: it.Outcome, Detail: it.Detail}
			switch it.State {
			case store.ItemDone:
				m.At = it.DoneAt
			case store.ItemInFlight, store.ItemUnknown:
				m.At = it.SentAt
			}
			u.marks[id] = m
		}
		if !undo {
			continue
		}
		// the files the undo named and did not send, in its plan's words
		for id, f := range ids {
			if sent[id] {
				continue
			}
			if old := u.marks[id]; old != nil && old.State != "" {
				continue // an earlier job's item says more
			}
			for _, line := range []string{"left", "gone"} {
				if why, ok := planLine(j.Plan, line, f); ok {
					u.marks[id] = &Mark{Job: j.ID, Undo: true, Plan: line, Why: why}
				}
			}
		}
	}
	return u, nil
}

// planLine finds f's line of the given word in an undo's plan text (as
// UndoText writes it: the word padded to 10, the ID, two spaces, the name,
// ": ", why) and returns why.
func planLine(plan, word string, f store.JournalFile) (string, bool) {
	head := fmt.Sprintf("\n%-10s%s  %s: ", word, f.FileID, f.Name)
	i := strings.Index(plan, head)
	if i < 0 {
		return "", false
	}
	rest := plan[i+len(head):]
	if k := strings.IndexByte(rest, '\n'); k >= 0 {
		rest = rest[:k]
	}
	return rest, true
}

// Of is the mark of a file, nil when no job touched or named it.
func (u *Undone) Of(f store.JournalFile) *Mark {
	if u == nil || f.FileID == "" {
		return nil
	}
	return u.marks[strings.ToLower(f.FileID)]
}

// Open reports whether an undo or deletion of a file is not settled: sent
// and its answer not recorded, or planned and not sent.
func (m *Mark) Open() bool {
	return m != nil && (m.State == store.ItemInFlight || m.State == store.ItemUnknown || m.State == store.ItemPlanned)
}

// RunResult is a file's outcome as the run's listing says it: Result's
// word and detail, unless a job deleted it since (deleted; gone when the
// job found it gone already), sent its deletion without its answer being
// recorded (unknown), or left it alone (the word stays, replaced when the
// undo found it replaced, the detail says why). m is the job's mark.
func RunResult(f store.JournalFile, u *Undone) (word, detail string, m *Mark) {
	word, detail = Result(f)
	m = u.Of(f)
	if m == nil {
		return word, detail, nil
	}
	at := ""
	if !m.At.IsZero() {
		at = " at " + m.At.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	switch {
	case m.State == store.ItemDone && m.Outcome == deletefile.Gone:
		return "gone", fmt.Sprintf("%s found it gone%s: %s", m.By(), at, m.Detail), m
	case m.State == store.ItemDone:
		return "deleted", fmt.Sprintf("deleted by %s%s", m.By(), at), m
	case m.State == store.ItemInFlight || m.State == store.ItemUnknown:
		return "unknown", fmt.Sprintf("%s sent its deletion%s and the answer was not recorded (stopped): deleted or not is unknown; `vaultdeck uploads undo %d` resumes and finds out", m.By(), at, f.RunID), m
	case m.State == store.ItemPlanned:
		return word, detail + fmt.Sprintf("; %s has not sent its deletion yet (`vaultdeck uploads undo %d` resumes it)", m.By(), f.RunID), m
	case m.State == store.ItemFailed:
		return word, detail + fmt.Sprintf("; %s did not delete it: %s", m.By(), m.Detail), m
	case m.Plan == "gone":
		return "gone", fmt.Sprintf("%s found it %s", m.By(), m.Why), m
	}
	if strings.HasPrefix(m.Why, "replaced since") {
		word = "replaced"
	}
	return word, detail + fmt.Sprintf("; left alone by %s: %s", m.By(), m.Why), m
}

// UndoneFiles are the run's files its earlier undos deleted, by file ID.
func UndoneFiles(st UndoneJournal, run int64) (map[string]string, error) {
	jobs, err := UndoJobs(st, run)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, j := range jobs {
		items, err := st.WriteJobItems(j.ID)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.State == store.ItemDone && out[it.Target] == "" {
				out[it.Target] = fmt.Sprintf("undo job %d (%s)", j.ID, j.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))
			}
		}
	}
	return out, nil
}

// UnsettledUndo is the newest undo of run when it has items not settled
// (planned, in flight, unknown) or is still running: running the undo
// again resumes it rather than planning another (the command and the
// console alike).
func UnsettledUndo(st UndoneJournal, run int64) (store.WriteJob, bool, error) {
	jobs, err := UndoJobs(st, run)
	if err != nil || len(jobs) == 0 {
		return store.WriteJob{}, false, err
	}
	j := jobs[0]
	open := j.Counts[store.ItemPlanned] + j.Counts[store.ItemInFlight] + j.Counts[store.ItemUnknown]
	return j, open > 0 || j.Status == store.JobRunning, nil
}
