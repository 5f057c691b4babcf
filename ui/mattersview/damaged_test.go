package mattersview

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/simtest"
	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// The console's receipt list on a damaged database says so (what to do
// with the file) instead of listing what is left readable.
func TestDamagedReceiptsSaidInTheConsole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "vaultdeck.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.StartReceipt(store.Receipt{Action: "delete", Profile: "p", Endpoint: "e", Pairs: 4000})
	if err != nil {
		t.Fatal(err)
	}
	items := make([]store.ReceiptItem, 4000)
	for i := range items {
		items[i] = store.ReceiptItem{Line: i + 2, ClientID: fmt.Sprintf("NX%05d", i), MatterID: fmt.Sprintf("A-LONG-MATTER-NUMBER-%05d", i), Result: "already_absent"}
	}
	if err := st.AddReceiptItems(id, items); err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, _ := sql.Open("sqlite", path)
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	fh, _ := os.OpenFile(path, os.O_RDWR, 0)
	info, _ := fh.Stat()
	junk := make([]byte, 4096*3)
	for i := range junk {
		junk[i] = byte(i * 7)
	}
	fh.WriteAt(junk, info.Size()/2&^4095)
	fh.Close()

	st, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := simtest.Start(t, simtest.Options{Sim: sim.Options{Seed: 1, NoRateLimit: true}}).Client
	m := New(pagetest.WithJobs(pagetest.Env(t, c, false), page.Jobs{Matters: c}), Deps{Store: st, Profile: "p"}, "")
	m.SetSize(140, 30)
	_, out := pagetest.Drive(m, m.Init())
	var said string
	for _, msg := range out {
		if e, ok := msg.(page.StatusMsg); ok && e.Err != nil {
			said = e.Err.Error()
		}
	}
	if !strings.Contains(said, "damaged") || !strings.Contains(said, "move the file aside") {
		t.Errorf("the list did not say the database is damaged: %q (messages %v)", said, out)
	}
}
