package receiptsview

import (
	"fmt"
	"strconv"

	"github.com/vaultdeck/vaultdeck/ui/csvsafe/records"
	"github.com/vaultdeck/vaultdeck/ui/page"
	"github.com/vaultdeck/vaultdeck/ui/widgets"
)

// Query is `vaultdeck access receipts` (the list), or `access receipts N`
// of the receipt open, whose --csv is its changes.
func (m *Model) Query() page.Query {
	if m.receipt != nil {
		return page.Query{Command: []string{"access", "receipts", strconv.FormatInt(m.receipt.Job.ID, 10)}}
	}
	q := page.Query{Command: []string{"access", "receipts"}}
	m.Table.SayExact(&q, -1, false, m.ExportTable()) // a / filter or sort as --filter/--sort when exact
	return q
}

// FromQuery builds the page a saved view names (:NAME): `access receipts`,
// with its --filter and --sort as / and the sort, or `access receipts N`.
func FromQuery(deps Deps) func(env page.Env, q page.Query) (page.Page, error) {
	return func(env page.Env, q page.Query) (page.Page, error) {
		flags, text, sort := widgets.TakeRules(q.Flags)
		if len(flags) > 0 {
			return nil, fmt.Errorf("the console's receipts view has no --%s; run the view headless with vaultdeck view", flags[0].Name)
		}
		arg := ""
		if len(q.Command) > 2 {
			arg = q.Command[2]
		}
		if err := Check(arg); err != nil {
			return nil, err
		}
		if arg != "" && (text != "" || sort != "") {
			return nil, fmt.Errorf("the console's receipt %s shows its changes unfiltered; run the view headless with vaultdeck view", arg)
		}
		p := Route(deps)(env, arg)
		if err := p.(*Model).Table.ApplyRules(text, sort); err != nil {
			return nil, err
		}
		return p, nil
	}
}

// ExportTable is what e writes: the jobs as shown (filtered, sorted) as
// their records, which `access receipts --csv` writes too; with a receipt
// open, its changes, as `access receipts N --csv` writes them.
func (m *Model) ExportTable() widgets.TableExport {
	if rc := m.receipt; rc != nil {
		rows := make([]int, len(rc.Items))
		for i := range rows {
			rows[i] = i
		}
		return widgets.ExportOf(nil, nil, rows).Records(records.AccessChangeHeader(), func(i int) []string { return records.AccessChange(&rc.Items[i]) })
	}
	jobs := m.jobs // the table's source: row i is job i
	return m.Table.Export().Records(records.AccessJobHeader(), func(i int) []string { return records.AccessJob(&jobs[i]) })
}
