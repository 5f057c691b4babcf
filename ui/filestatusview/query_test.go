package filestatusview

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
)

// The journal's view with an ID pasted is no longer `status --journal`:
// C gives `status` the IDs, and names the journaled files the service
// never confirmed, which have no ID to give (they were passed as
// "journal:ROW", which status refuses as no UUID).
func TestPastedJournalViewNamesWhatStatusCannotList(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const sent, more = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
	run, _ := st.CreateRun(store.UploadRun{Profile: "p", ProjectID: "proj", Mode: "skip"})
	b, _ := st.RecordBatch(run, []store.JournalFile{{Local: "/d/a.pdf", Path: "a.pdf", Name: "a.pdf"}}, store.Lease{Owner: "me", Until: t0.Add(time.Hour)})
	st.CompleteBatch(b.ID, "me", []store.FileOutcome{{ID: b.Files[0].ID, State: store.FileUploaded, FileID: sent, UploadedAt: t0}}, "")
	st.RecordBatch(run, []store.JournalFile{{Local: "/d/b.pdf", Path: "b.pdf", Name: "b.pdf"}}, store.Lease{Owner: "me", Until: t0.Add(time.Hour)}) // never sent
	fake := newFake()
	fake.set("processing", sent, more)
	r := newRigEnv(t, fake, "", Options{}, func(e *pageEnv) { e.Journal, e.Conn = st, &account.Conn{DataProfile: "p"} })
	r.run(r.m.Init())
	if q := r.m.Query(); q.Line() != "vaultdeck status --journal" || len(r.m.tr.Files) != 2 {
		t.Fatalf("opened from the journal: %s, %d files", q.Line(), len(r.m.tr.Files))
	}
	r.key(runes("a"))
	r.key(runes(more))
	r.key(tea.KeyMsg{Type: tea.KeyEnter})
	q := r.m.Query()
	if got := strings.Join(q.Command, " "); got != "status "+sent+","+more {
		t.Errorf("C says %s", q.Line())
	}
	if len(q.Unsaid) != 1 || !strings.Contains(q.Unsaid[0], "1 journaled file the service never confirmed") {
		t.Errorf("Unsaid %q", q.Unsaid)
	}
}
