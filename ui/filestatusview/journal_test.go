package filestatusview

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
)

// Polls that change nothing back off: 10s doubled per quiet poll up to two
// minutes (the budget floor here is 12s); a change resets the pause.
func TestPollingBacksOffWhenNothingChanges(t *testing.T) {
	fake := newFake()
	fake.set("processing", "a", "b")
	r := newRig(t, fake, "a,b", Options{})
	r.run(r.m.Init())
	var got []time.Duration
	for range 5 {
		r.deliver()
		got = append(got, r.waits[len(r.waits)-1])
	}
	want := []time.Duration{20 * time.Second, 40 * time.Second, 80 * time.Second, 2 * time.Minute, 2 * time.Minute}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("quiet pauses %v, want %v", got, want)
		}
	}
	if v := r.m.View(); !strings.Contains(v, "nothing changed, backing off") {
		t.Errorf("reason not shown:\n%s", v)
	}
	fake.set("ready_to_query", "a")
	r.deliver()
	if w := r.waits[len(r.waits)-1]; w != 12*time.Second {
		t.Errorf("after a change: %v, want 12s", w)
	}
}

// `:files` with no IDs opens the journal's files still processing, dated
// by their upload time, and each poll's answer is written back: a file
// that became ready is no longer tracked next time.
func TestFilesFromJournal(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run, _ := st.CreateRun(store.UploadRun{Profile: "p", ProjectID: "proj", Mode: "skip"})
	b, _ := st.RecordBatch(run, []store.JournalFile{{Local: "/d/a.pdf", Path: "a.pdf", Name: "a.pdf"}, {Local: "/d/b.pdf", Path: "b.pdf", Name: "b.pdf"}},
		store.Lease{Owner: "me", Until: t0.Add(time.Hour)})
	st.CompleteBatch(b.ID, "me", []store.FileOutcome{
		{ID: b.Files[0].ID, State: store.FileUploaded, FileID: "a", UploadedAt: t0.Add(-3 * time.Hour)},
		{ID: b.Files[1].ID, State: store.FileUploaded, FileID: "b", UploadedAt: t0.Add(-time.Minute)},
	}, "")

	fake := newFake()
	fake.set("processing", "a")
	fake.set("ready_to_query", "b")
	r := newRigEnv(t, fake, "", Options{}, func(e *pageEnv) { e.Journal, e.Conn = st, &account.Conn{DataProfile: "p"} })
	if r.m.pasting {
		t.Fatal("paste input opened although the journal may have files")
	}
	r.run(r.m.Init())
	v := r.m.View()
	if !strings.Contains(lineWith(v, "a.pdf"), "3h00m") || !strings.Contains(lineWith(v, "a.pdf"), "stuck") || !strings.Contains(v, "ready 1") {
		t.Errorf("journal files not shown with upload-time ages:\n%s", v)
	}
	tracked, _ := st.TrackedFiles("p")
	if len(tracked) != 1 || tracked[0].FileID != "a" || tracked[0].Status != "processing" {
		t.Errorf("after the poll the journal tracks %+v", tracked)
	}

	// An empty journal opens the paste input.
	st.SetFileStatuses(map[string]string{"a": "ready_to_query"})
	r2 := newRigEnv(t, newFake(), "", Options{}, func(e *pageEnv) { e.Journal, e.Conn = st, &account.Conn{DataProfile: "p"} })
	r2.run(r2.m.Init())
	if !r2.m.pasting {
		t.Error("no journal files: the paste input should open")
	}
}

// TestDamagedJournalSaysSo: with the journal's file pages damaged, the
// console's read of the tracked files fails with the store's sentence
// (the file, and what to do with it), not a bare SQLite error or an empty
// list.
func TestDamagedJournalSaysSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), store.FileName)
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var files []store.JournalFile
	for i := range 60 {
		name := fmt.Sprintf("doc-%02d.pdf", i)
		files = append(files, store.JournalFile{Local: "/d/" + name, Path: name, Name: name, Size: 10})
	}
	if _, _, err := st.RecordRun(store.UploadRun{Profile: "p", ProjectID: "proj", Mode: "skip"}, nil, [][]store.JournalFile{files}, store.Lease{}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, _ := sql.Open("sqlite", path)
	var pages []int64
	rows, err := db.Query(`SELECT pageno FROM dbstat WHERE name = 'upload_files'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p int64
		rows.Scan(&p)
		pages = append(pages, p)
	}
	rows.Close()
	db.Close()
	f, _ := os.OpenFile(path, os.O_RDWR, 0)
	for _, p := range pages {
		f.WriteAt(bytes.Repeat([]byte{0xA5}, 4096), (p-1)*4096)
	}
	f.Close()

	st, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	msg := loadJournal(st, nil, "p", 1, true, nil)().(journalMsg)
	if !errors.Is(msg.Err, store.ErrDamaged) {
		t.Errorf("journal read on a damaged file: %v", msg.Err)
	}
}
