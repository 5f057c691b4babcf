package cli

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TestPurgingWithinIsSoonestFirstInEveryFormat: with --purging-within the
// bin lists soonest purge first in the table and in every other format
// (--csv, --json, --jsonl, --jq, a saved view's --csv), the same entries in
// the same order; without it, every format keeps the newest deletion first.
func TestPurgingWithinIsSoonestFirstInEveryFormat(t *testing.T) {
	path, vd, r := viewsEnv(t)
	q := page.Query{Command: []string{"recycle-bin", "--purging-within", "60d"}}
	if err := account.SaveView(path, "purging", q.Quoted(), checkView(r.orig)); err != nil {
		t.Fatal(err)
	}
	var bin struct{ Items []binItem }
	all := vd("recycle-bin", "--json")
	if all.code != 0 || json.Unmarshal([]byte(all.stdout), &bin.Items) != nil {
		t.Fatalf("--json: %d %s", all.code, all.stderr)
	}
	// The order wanted: the service's (newest deletion first), stably sorted
	// by purge time, of the entries the table shows.
	table := vd("recycle-bin", "--purging-within", "60d")
	var want []string // resource IDs, soonest purge first
	for _, line := range strings.Split(table.stdout, "\n")[1:] {
		for _, it := range bin.Items {
			if strings.Contains(line, " "+it.Resource+" ") {
				want = append(want, it.Resource)
			}
		}
	}
	sorted := slices.IsSortedFunc(want, func(a, b string) int { return strings.Compare(purgeOf(bin.Items, a), purgeOf(bin.Items, b)) })
	if table.code != 0 || len(want) < 3 || !sorted {
		t.Fatalf("the table: exit %d, %d entries, sorted %v:\n%s%s", table.code, len(want), sorted, table.stdout, table.stderr)
	}
	var service []string
	for _, it := range bin.Items {
		if slices.Contains(want, it.Resource) {
			service = append(service, it.Resource)
		}
	}
	if slices.Equal(service, want) {
		t.Fatalf("the service's order is already soonest first: the test proves nothing")
	}
	fromJSON := func(doc string) []string {
		var items []struct {
			Resource string `json:"resource_id"`
		}
		_ = json.Unmarshal([]byte(doc), &items)
		var ids []string
		for _, it := range items {
			ids = append(ids, it.Resource)
		}
		return ids
	}
	fromCSV := func(doc string) []string {
		rows, _ := csv.NewReader(strings.NewReader(doc)).ReadAll()
		col := -1
		var ids []string
		for i, row := range rows {
			if i == 0 {
				col = slices.Index(row, "project id") // the bin's record (ui/csvsafe/records)
				continue
			}
			if col >= 0 {
				ids = append(ids, row[col])
			}
		}
		return ids
	}
	lines := func(doc string) []string { return strings.Fields(doc) }
	for _, tc := range []struct {
		args []string
		ids  func(string) []string
	}{
		{[]string{"recycle-bin", "--purging-within", "60d", "--csv"}, fromCSV},
		{[]string{"view", "purging", "--csv"}, fromCSV},
		{[]string{"recycle-bin", "--purging-within", "60d", "--json"}, fromJSON},
		{[]string{"view", "purging", "--json"}, fromJSON},
		{[]string{"recycle-bin", "--purging-within", "60d", "--jsonl"}, func(s string) []string {
			var ids []string
			for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
				ids = append(ids, fromJSON("["+l+"]")...)
			}
			return ids
		}},
		{[]string{"recycle-bin", "--purging-within", "60d", "--jq", ".[] | .resource_id"}, lines},
		{[]string{"recycle-bin", "--purging-within", "60d", "--template", `{{range .}}{{.resource_id}}{{"\n"}}{{end}}`}, lines},
		{[]string{"view", "purging", "--jq", "map(.resource_id) | .[]"}, lines},
	} {
		got := vd(tc.args...)
		if ids := tc.ids(got.stdout); got.code != 0 || !slices.Equal(ids, want) {
			t.Errorf("%q: exit %d %s\n got %q\nwant %q", tc.args, got.code, got.stderr, ids, want)
		}
	}
}

type binItem struct {
	PurgeAt  string `json:"recycle_bin_purged_scheduled_at"`
	Resource string `json:"resource_id"`
}

func purgeOf(items []binItem, id string) string {
	for _, it := range items {
		if it.Resource == id {
			return it.PurgeAt
		}
	}
	return ""
}
