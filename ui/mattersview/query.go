package mattersview

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Query implements page.Querier (issue 31): the receipt list is `matters
// receipts`, one receipt's outcomes `matters receipt ID` with the outcome
// (s) and error-code (t) filters in effect. A file being read, previewed
// or sent is no listing: its Query is empty, and C says so.
func (m *Model) Query() page.Query {
	var q page.Query
	switch m.mode {
	case modeList:
		q.Command = []string{"matters", "receipts"}
	case modeReceipt:
		q.Command = []string{"matters", "receipt", strconv.FormatInt(m.receipt.ID, 10)}
		q.With("result", m.result)
		q.With("code", m.code)
		if m.matched > len(m.items) {
			q.Unsaid = append(q.Unsaid, fmt.Sprintf("the view's cap: it holds the first %d of %s, the command prints them all", len(m.items), plural.Count(m.matched, "outcome")))
		}
	default:
		return q
	}
	m.table().SayExact(&q, -1, false, m.ExportTable())
	return q
}

// FromQuery returns the builder :NAME uses for a saved matters view: the
// receipt list, or one receipt with its filters (read by Init).
func FromQuery(deps Deps) func(env page.Env, q page.Query) (page.Page, error) {
	return func(env page.Env, q page.Query) (page.Page, error) {
		m := New(env, deps, "")
		flags, text, sort := widgets.TakeRules(q.Flags)
		switch {
		case len(q.Command) == 2 && q.Command[1] == "receipts":
			if len(flags) > 0 {
				return nil, fmt.Errorf("matters receipts has no --%s", flags[0].Name)
			}
			if err := m.receipts.ApplyRules(text, sort); err != nil {
				return nil, err
			}
			return m, nil
		case len(q.Command) == 3 && q.Command[1] == "receipt":
			id, err := strconv.ParseInt(q.Command[2], 10, 64)
			if err != nil || id <= 0 {
				return nil, fmt.Errorf("receipt ID %q is not a positive number", q.Command[2])
			}
			m.opening = id
			if err := m.outcomes.ApplyRules(text, sort); err != nil {
				return nil, err
			}
			for _, f := range flags {
				switch f.Name {
				case "result":
					m.result = f.Value
				case "code":
					m.code = f.Value
				default:
					return nil, fmt.Errorf("the console's receipt view has no --%s; run the view headless with vaultdeck view", f.Name)
				}
			}
			return m, nil
		}
		return nil, fmt.Errorf("the console's matters view does not show %q", strings.Join(q.Command, " "))
	}
}

// Table is the table the mode shows: what a query's rows are checked
// against.
func (m *Model) Table() *widgets.Table { return m.table() }

// ReceiptID is the receipt shown (0: none).
func (m *Model) ReceiptID() int64 {
	if m.mode != modeReceipt {
		return 0
	}
	return m.receipt.ID
}
