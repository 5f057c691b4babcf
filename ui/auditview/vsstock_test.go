package auditview

import (
	"fmt"
	"testing"
	"time"

	"github.com/vaultdeck/vaultdeck/api/sim"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
	"github.com/vaultdeck/vaultdeck/ui/widgets/stocktable"
)

// BenchmarkKeyPressVsStock100k: the audit view holding 100,000 entries (as
// after a long scroll back) against the stock bubbles table with the same
// rows' text at 200x60, timed alternately in one run (ours/stock, goal at
// most 0.1).
func BenchmarkKeyPressVsStock100k(b *testing.B) {
	r := newRig(b, sim.Options{}, false, "")
	r.run(r.m.Init())
	es := make([]store.AuditEntry, 100_000)
	rows := make([][]string, len(es))
	types := []string{"user:login", "vault:project_deleted", "user:word_add_in_document_open", "vault:file_uploaded"}
	for i := range es {
		es[i] = store.AuditEntry{ID: fmt.Sprintf("e%06d", i), Time: simNow.Add(-time.Duration(i) * time.Second),
			Type: types[i%len(types)], User: fmt.Sprintf("associate%03d@firm.test", i%300), IP: "10.0.0.7",
			Raw: []byte(`{"log_type":"x"}`)}
		rows[i] = []string{es[i].Time.Format(timeLayout), es[i].Type, es[i].User, es[i].IP}
	}
	r.run(r.m.show(es, 0))
	r.m.SetSize(200, 60)
	if r.m.Table.Len() != len(es) {
		b.Fatalf("the view holds %d rows, want %d", r.m.Table.Len(), len(es))
	}
	stock := stocktable.New([]string{"time", "type", "user", "ip"}, rows, 200, 60)
	down := pagetest.Key("down")
	stocktable.Compare(b, func() { r.m.Update(down); _ = r.m.View() }, stock, down)
}
