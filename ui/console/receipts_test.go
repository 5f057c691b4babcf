package console

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/store"
)

// TestMattersGetsItsReceiptsExplicitly: the matters view found its receipts
// by a type assertion on the response cache, so a console given the
// database but no StoreCache (or another cache) said "receipts are not
// available". It is now handed them (Options.Receipts).
func TestMattersGetsItsReceiptsExplicitly(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "vaultdeck.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.StartReceipt(store.Receipt{Action: "delete", Profile: "p", Endpoint: "e", FileName: "march-closures.csv", Pairs: 3}); err != nil {
		t.Fatal(err)
	}
	c, _ := countingSim(t)
	m, err := NewModel(context.Background(), Options{Backend: c, Jobs: ClientJobs(c), Conn: &account.Conn{Profile: "p", DataProfile: "p", Workspace: "W"},
		Journal: st, Receipts: st, Start: "matters"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	drive(m, tea.WindowSizeMsg{Width: 120, Height: 30})
	drive(m, m.Init()())
	if v := m.View(); !strings.Contains(v, "march-closures.csv") {
		t.Errorf("the receipt is not listed:\n%s", v)
	}
}
