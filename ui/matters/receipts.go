package matters

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
		items   []store.ReceiptItem
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

// loadReceipt reads one receipt and all its items.
func (m *Model) loadReceipt(id int64) tea.Cmd {
	tag, st := m.reqs.Next(m.id), m.deps.Store
	return func() tea.Msg {
		if st == nil {
			return receiptLoaded{Tag: tag, err: errNoStore}
		}
		rc, err := st.Receipt(id)
		if err != nil {
			return receiptLoaded{Tag: tag, err: err}
		}
		var items []store.ReceiptItem
		err = st.ReceiptItems(id, "", func(it store.ReceiptItem) error { items = append(items, it); return nil })
		return receiptLoaded{Tag: tag, receipt: rc, items: items, err: err}
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
	m.receipt, m.items, m.result, m.code = r.receipt, r.items, "", ""
	m.mode, m.run = modeReceipt, nil
	m.layout()
	return m.applyFilter()
}

// applyFilter shows the items of the chosen outcome and error code.
func (m *Model) applyFilter() tea.Cmd {
	var shown []store.ReceiptItem
	for _, it := range m.items {
		if (m.result == "" || it.Result == m.result) && (m.code == "" || it.Code == m.code) {
			shown = append(shown, it)
		}
	}
	return m.outcomes.SetRows(itemRows(shown))
}

// resultsIn and codesIn list the values present, in a stable order, for
// the filters to cycle through.
func resultsIn(items []store.ReceiptItem) []string {
	return distinct(items, func(it store.ReceiptItem) string { return it.Result })
}

func codesIn(items []store.ReceiptItem) []string {
	return distinct(items, func(it store.ReceiptItem) string { return it.Code })
}

func distinct(items []store.ReceiptItem, f func(store.ReceiptItem) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		if v := f(it); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
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
