package upload

import (
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/writejob/deletefile"
	"github.com/vaultdeck/vaultdeck/store"
)

type undoneFake struct {
	jobs  []store.WriteJob // newest first, as the store lists them
	items map[int64][]store.WriteJobItem
}

func (f *undoneFake) WriteJobs(...string) ([]store.WriteJob, error) { return f.jobs, nil }
func (f *undoneFake) WriteJobItems(id int64) ([]store.WriteJobItem, error) {
	return f.items[id], nil
}

// TestRunResultAfterDeleteJobs: every way a delete job can have met a
// run's file, worded. A Files-tab deletion (no undo tag) counts as well as
// an undo; a file an earlier job deleted stays deleted by that job when a
// later one finds it gone; the undo's plan lines name what it did not send.
func TestRunResultAfterDeleteJobs(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	f := func(id, name string) store.JournalFile {
		return store.JournalFile{RunID: 7, Name: name, Path: name, FileID: id, State: store.FileUploaded}
	}
	files := []store.JournalFile{f("A1", "a.pdf"), f("B2", "b.pdf"), f("C3", "c.pdf"), f("D4", "d.pdf"), f("E5", "e.pdf"),
		f("F6", "f.pdf"), f("G7", "g.pdf"), f("H8", "h.pdf"), {RunID: 7, Name: "x.pdf", State: store.FilePending}}
	item := func(seq int, target, state, outcome, detail string) store.WriteJobItem {
		it := store.WriteJobItem{Seq: seq, Send: seq, Target: target, State: state, Outcome: outcome, Detail: detail}
		if state == store.ItemDone {
			it.DoneAt = at
		}
		if state == store.ItemInFlight {
			it.SentAt = at
		}
		return it
	}
	plan := UndoTag(7) + "undo      upload run 7\ndelete    4 files, one request each\n" +
		"gone      G7  g.pdf: already gone (deleted_at set: deleted since, or replaced by a file since deleted)\n" +
		"left      H8  h.pdf: replaced since by a newer upload of its name (Z9, not this run's): left alone\n"
	j := &undoneFake{
		jobs: []store.WriteJob{{ID: 5, Kind: deletefile.Name, Plan: plan, Counts: map[string]int{store.ItemInFlight: 1, store.ItemPlanned: 1}}, {ID: 2, Kind: deletefile.Name, Plan: "delete 1 file (the Files tab)\n"},
			{ID: 1, Kind: deletefile.Name, Plan: UndoTag(8) + "another run's undo\n"}},
		items: map[int64][]store.WriteJobItem{
			1: {item(1, "zz", store.ItemDone, deletefile.Deleted, "")},
			2: {item(1, "a1", store.ItemDone, deletefile.Deleted, "")}, // the Files tab; IDs in any case
			5: {item(1, "A1", store.ItemDone, deletefile.Gone, "already gone: the service answered 404"),
				item(2, "B2", store.ItemDone, deletefile.Deleted, ""),
				item(3, "C3", store.ItemInFlight, "", ""),
				item(4, "D4", store.ItemPlanned, "", ""),
				item(5, "E5", store.ItemFailed, deletefile.Busy, "the service answered 409: the file is still being processed")},
		},
	}
	u, err := ReadUndone(j, 7, files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"a.pdf": {"deleted", "deleted by delete job 2 at 2026-03-04 05:06:07 UTC"},
		"b.pdf": {"deleted", "deleted by undo job 5 at 2026-03-04 05:06:07 UTC"},
		"c.pdf": {"unknown", "undo job 5 sent its deletion at 2026-03-04 05:06:07 UTC and the answer was not recorded"},
		"d.pdf": {"uploaded", "D4; undo job 5 has not sent its deletion yet"},
		"e.pdf": {"uploaded", "E5; undo job 5 did not delete it: the service answered 409"},
		"f.pdf": {"uploaded", "F6"},
		"g.pdf": {"gone", "undo job 5 found it already gone (deleted_at set"},
		"h.pdf": {"replaced", "H8; left alone by undo job 5: replaced since by a newer upload of its name (Z9, not this run's): left alone"},
		"x.pdf": {"not sent", "run `vaultdeck upload --resume`"},
	}
	for _, file := range files {
		word, detail, m := RunResult(file, u)
		w := want[file.Name]
		if word != w[0] || !strings.HasPrefix(detail, w[1]) {
			t.Errorf("%s: %q %q, want %q %q…", file.Name, word, detail, w[0], w[1])
		}
		if open := file.Name == "c.pdf" || file.Name == "d.pdf"; m.Open() != open {
			t.Errorf("%s: open %v", file.Name, m.Open())
		}
	}
	if job, ok, err := UnsettledUndo(j, 7); err != nil || !ok || job.ID != 5 {
		t.Errorf("the unsettled undo: %v %v %v", job.ID, ok, err)
	}
}
