package mattersview

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

type (
	receiptsLoaded struct {
		page.Tag
		list []store.Receipt
		err  error
	}
	receiptLoaded struct {
		page.Tag
		receipt store.Receipt
		items   []store.ReceiptItem // at most maxItems of those matched
		matched int
		codes   map[string]int
		audit   string // the service's own audit entries of the run (receiptEvidence)
		short   bool   // the mirror stops short of the run: a sync would tell more
		err     error
	}
)

var errNoStore = errors.New("no local database: receipts are not available")

// loadReceipts reads the receipt list (SQLite: in a Cmd, never in Update).
func (m *Model) loadReceipts() tea.Cmd {
	tag, st := m.reqs.Next(m.id), m.deps.Store
	return func() tea.Msg {
		if st == nil {
			return receiptsLoaded{Tag: tag, err: errNoStore}
		}
		if err := st.Check(); err != nil { // damaged: said, never shown as fewer receipts
			return receiptsLoaded{Tag: tag, err: err}
		}
		list, err := st.Receipts()
		return receiptsLoaded{Tag: tag, list: list, err: err}
	}
}

func (m *Model) receiptsArrived(r receiptsLoaded) tea.Cmd {
	if !m.reqs.Current(r.Tag) {
		return nil
	}
	if r.err != nil {
		return page.Error(fmt.Errorf("the receipts could not be read: %w", r.err))
	}
	m.list = r.list
	return m.receipts.SetRows(receiptRows(r.list))
}

// maxItems rows of one receipt are loaded into the view; the command
// line's export has them all.
const maxItems = 100_000

// openReceipt shows receipt id from the start: every outcome.
func (m *Model) openReceipt(id int64) tea.Cmd {
	m.result, m.code = "", ""
	return m.loadReceipt(id)
}

// loadReceipt reads one receipt and the items that pass the filters, at
// most maxItems of them, straight from the store (a million-pair receipt
// is never held whole).
func (m *Model) loadReceipt(id int64) tea.Cmd {
	tag, st, result, code, limit := m.reqs.Next(m.id), m.deps.Store, m.result, m.code, m.maxItems
	ctx, be, now := m.env.Context(), m.env.Backend, m.env.Clock()
	remedy := m.env.ChoreHint(page.ChoreSyncAudit) // a key in the demo, else the shell command
	return func() tea.Msg {
		if st == nil {
			return receiptLoaded{Tag: tag, err: errNoStore}
		}
		if err := st.Check(); err != nil {
			return receiptLoaded{Tag: tag, err: err}
		}
		rc, err := st.Receipt(id)
		if err != nil {
			return receiptLoaded{Tag: tag, err: err}
		}
		codes, err := st.ReceiptCodes(id)
		if err != nil {
			return receiptLoaded{Tag: tag, err: err}
		}
		out := receiptLoaded{Tag: tag, receipt: rc, codes: codes}
		out.audit, out.short = receiptEvidence(ctx, be, st, rc, now, remedy)
		out.err = st.ReceiptItemsWhere(id, result, code, func(it store.ReceiptItem) error {
			out.matched++
			if len(out.items) < limit {
				out.items = append(out.items, it)
			}
			return nil
		})
		return out
	}
}

func (m *Model) receiptArrived(r receiptLoaded) tea.Cmd {
	if !m.reqs.Current(r.Tag) {
		return nil
	}
	if r.err != nil {
		if m.mode == modeRun {
			m.mode, m.run = modeList, nil
			m.layout()
		}
		return page.Error(fmt.Errorf("the receipt could not be read: %w", r.err))
	}
	m.receipt, m.items, m.codes, m.matched, m.audit, m.auditShort = r.receipt, r.items, r.codes, r.matched, r.audit, r.short
	m.mode, m.run = modeReceipt, nil
	m.layout()
	return m.outcomes.SetRows(itemRows(r.items))
}

// Chore implements page.ChoreHinter: the receipt's evidence asks for an
// audit sync when the mirror stops short of the run.
func (m *Model) Chore() page.Chore {
	if m.mode == modeReceipt && m.auditShort {
		return page.ChoreSyncAudit
	}
	return page.ChoreNone
}

// sortedKeys lists the values present, in a stable order, for the filters
// to cycle through.
func sortedKeys(counts map[string]int) []string {
	var out []string
	for k, n := range counts {
		if n > 0 {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// nextOf cycles "" (all) → each value → "".
func nextOf(values []string, cur string) string {
	i := slices.Index(values, cur)
	if i+1 < len(values) {
		return values[i+1]
	}
	return ""
}

func parseID(s string) int64 {
	id, _ := strconv.ParseInt(s, 10, 64)
	return id
}
