package cli

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/account"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

// TestFilterAndSortInEveryFormat (issue 42): --filter TEXT keeps the rows
// one of whose CSV cells holds TEXT in any case, and --sort COLUMN[,desc]
// orders them by a CSV column (numbers as numbers, ties in the listing's
// order), the same items in the same order in --csv, --json, --jsonl,
// --jq, the table and a saved view; an unknown column is a usage error
// naming the columns, --sort past --jq-hold says so, and a flag a command
// cannot apply is refused rather than ignored.
func TestFilterAndSortInEveryFormat(t *testing.T) {
	path, vd, r := viewsEnv(t)
	whole := vd("recycle-bin", "--csv")
	all, err := csv.NewReader(strings.NewReader(whole.stdout)).ReadAll()
	if whole.code != 0 || err != nil || len(all) < 10 {
		t.Fatalf("recycle-bin --csv: %d %v %s", whole.code, err, whole.stderr)
	}
	header, recs := all[0], all[1:]
	id, files := slices.Index(header, "project id"), slices.Index(header, "files")
	if id < 0 || files < 0 {
		t.Fatalf("header %q", header)
	}
	// a deleter's name: it is in no project's name, so the service's --name cannot say it
	text := strings.ToUpper(strings.SplitN(recs[3][slices.Index(header, "deleted by")], "@", 2)[0])
	var want []string
	for _, rec := range recs {
		if slices.ContainsFunc(rec, func(c string) bool { return strings.Contains(strings.ToLower(c), strings.ToLower(text)) }) {
			want = append(want, rec[id])
		}
	}
	if len(want) == 0 || len(want) == len(recs) {
		t.Fatalf("%q keeps %d of %d: the case proves nothing", text, len(want), len(recs))
	}
	byFiles := slices.Clone(recs)
	slices.SortStableFunc(byFiles, func(a, b []string) int {
		x, _ := strconv.Atoi(a[files])
		y, _ := strconv.Atoi(b[files])
		return y - x
	})
	var sorted []string
	for _, rec := range byFiles {
		sorted = append(sorted, rec[id])
	}
	q := page.Query{Command: []string{"recycle-bin"}, Flags: []page.Flag{{Name: "filter", Value: text}}}
	if err := account.SaveView(path, "theirs", q.Quoted(), checkView(r.orig)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"filtered", []string{"--filter", text}, want},
		{"sorted", []string{"--sort", "FILES,desc"}, sorted},
	} {
		ids := func(format string, got run) []string {
			t.Helper()
			if got.code != 0 {
				t.Fatalf("%s %s: exit %d: %s", c.name, format, got.code, got.stderr)
			}
			var out []string
			switch format {
			case "--csv":
				rows, _ := csv.NewReader(strings.NewReader(got.stdout)).ReadAll()
				for _, r := range rows[1:] {
					out = append(out, r[id])
				}
			case "--json":
				var items []struct { // the listing's one array
					ID string `json:"resource_id"`
				}
				_ = json.Unmarshal([]byte(got.stdout), &items)
				for _, it := range items {
					out = append(out, it.ID)
				}
			case "--jsonl":
				for _, l := range strings.Split(strings.TrimSpace(got.stdout), "\n") {
					var it struct {
						ID string `json:"resource_id"`
					}
					_ = json.Unmarshal([]byte(l), &it)
					out = append(out, it.ID)
				}
			case "--jq":
				out = strings.Fields(got.stdout)
			case "table":
				for _, l := range strings.Split(got.stdout, "\n")[1:] {
					for _, w := range c.want {
						if strings.Contains(l, w) {
							out = append(out, w)
						}
					}
				}
			}
			return out
		}
		for _, f := range [][]string{{"--csv"}, {"--json"}, {"--jsonl"}, {"--jq", ".[] | .resource_id"}, {"table"}} {
			args := append([]string{"recycle-bin"}, c.args...)
			if f[0] != "table" {
				args = append(args, f...)
			}
			if got := ids(f[0], vd(args...)); !slices.Equal(got, c.want) {
				t.Errorf("%s %s: %d rows %q\nwant %d %q", c.name, f[0], len(got), got, len(c.want), c.want)
			}
		}
	}
	if got := vd("view", "theirs", "--csv"); !strings.Contains(got.stdout, want[0]) || strings.Count(got.stdout, "\n") != len(want)+1 {
		t.Errorf("the saved view with --filter: %d %q %s", got.code, got.stdout, got.stderr)
	}
	if got := vd("recycle-bin", "--sort", "nosuch"); got.code != 2 || !strings.Contains(got.stderr, "deleted-at") {
		t.Errorf("an unknown column: %d %q", got.code, got.stderr)
	}
	if got := vd("recycle-bin", "--sort", "files", "--jq-hold", "1KiB", "--csv"); got.code != 1 || !strings.Contains(got.stderr, "--jq-hold") || got.stdout != "" {
		t.Errorf("--sort past --jq-hold: %d %q %q", got.code, got.stdout, got.stderr)
	}
	// a Value's rows (audit stats --csv): filtered and sorted as a listing's; its text refuses them
	if got := vd("audit", "sync"); got.code != 0 {
		t.Fatalf("audit sync: %d %s", got.code, got.stderr)
	}
	buckets := vd("audit", "stats", "--since", "30d", "--by", "day", "--csv", "--filter", "-0", "--sort", "count,desc")
	rows, _ := csv.NewReader(strings.NewReader(buckets.stdout)).ReadAll()
	if buckets.code != 0 || len(rows) < 3 {
		t.Fatalf("audit stats --filter --sort: %d %q %s", buckets.code, buckets.stdout, buckets.stderr)
	}
	if !slices.IsSortedFunc(rows[1:], func(a, b []string) int { x, _ := strconv.Atoi(a[2]); y, _ := strconv.Atoi(b[2]); return y - x }) {
		t.Errorf("audit stats --sort count,desc: %q", rows)
	}
	if got := vd("audit", "stats", "--since", "30d", "--filter", "x"); got.code != 2 || got.stdout != "" {
		t.Errorf("audit stats's text with --filter: %d %q %q", got.code, got.stdout, got.stderr)
	}
	// refused before it runs: a sync (or a follow, a write) would otherwise do its work first
	if got := vd("audit", "sync", "--sort", "time"); got.code != 2 || got.stdout != "" || !strings.Contains(got.stderr, "audit sync lists none") {
		t.Errorf("--sort on audit sync: %d %q %q", got.code, got.stdout, got.stderr)
	}
	// a listing's command in a mode that lists nothing: status --watch prints changes as they come
	// (here at once: the file is missing), refused before it asks for them
	if got := vd("status", "--watch", "--filter", "x", "0b7c2a4e-1f3d-4c5b-9a8e-7d6f5e4c3b2a"); got.code != 2 || got.stdout != "" || !strings.Contains(got.stderr, "--watch") {
		t.Errorf("--filter on status --watch: %d %q %q", got.code, got.stdout, got.stderr)
	}
	if got := vd("version", "--filter", "x"); got.code != 2 || !strings.Contains(got.stderr, "--filter") {
		t.Errorf("--filter where no listing is printed: %d %q %q", got.code, got.stdout, got.stderr)
	}
}
