package cli

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// faultRun runs vaultdeck against a fault server serving fault.
func faultRun(t *testing.T, fault faultserver.Fault) func(args ...string) run {
	t.Helper()
	srv := faultserver.Start(fault)
	t.Cleanup(srv.Close)
	home := t.TempDir()
	return func(args ...string) run {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Limits: api.Limits{Vault: -1, Audit: -1, Matters: -1},
			Getenv: func(k string) string {
				return map[string]string{"VAULTDECK_TOKEN": "tok", "VAULTDECK_BASE_URL": srv.URL, "VAULTDECK_HOME": home}[k]
			}}
		return run{Main(context.Background(), args, env), out.String(), errb.String()}
	}
}

// TestNumbersAndTimesOutsideTheInterfaceShowAsInvalid: a count, a size or
// a total of 10^30, negative, NaN or Infinity, a deletion in the year 1 and
// a purge in the year 9999 are shown as invalid in the table and the CSV,
// never as -9223372036854775808, a saturated "106751d23h" or the raw text;
// --json keeps what the service sent.
func TestNumbersAndTimesOutsideTheInterfaceShowAsInvalid(t *testing.T) {
	wrapped := []string{"9223372036854775807", "106751d", "0001-01-01", "9999-12-31", "NaN", "Inf", "EiB"}
	negative := regexp.MustCompile(`(^|[\s,])-\d+($|[\s,])`) // a cell that is a negative number
	for _, fault := range []faultserver.Fault{faultserver.OutOfRange, faultserver.Negative, faultserver.NotNumber} {
		vd := faultRun(t, fault)
		for _, args := range [][]string{{"projects"}, {"projects", "--csv"}, {"recycle-bin"}, {"recycle-bin", "--csv"}, {"files", faultserver.ProjectID}, {"files", faultserver.ProjectID, "--csv"}} {
			r := vd(args...)
			for _, bad := range wrapped {
				if strings.Contains(r.stdout, bad) {
					t.Errorf("%s: %v shows %q:\n%s%s", fault, args, bad, r.stdout, r.stderr)
				}
			}
			if m := negative.FindString(r.stdout); m != "" {
				t.Errorf("%s: %v shows %q:\n%s%s", fault, args, m, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "invalid") {
				t.Errorf("%s: %v does not say invalid:\n%s%s", fault, args, r.stdout, r.stderr)
			}
		}
	}
	vd := faultRun(t, faultserver.OutOfRange)
	if r := vd("projects", "--json"); !strings.Contains(r.stdout, `"files_count":1000000000000000000000000000000`) {
		t.Errorf("projects --json does not keep the value sent:\n%s", r.stdout)
	}
	if r := vd("recycle-bin", "--json"); !strings.Contains(r.stdout, `"deleted_at":"0001-01-01T00:00:00Z"`) || !strings.Contains(r.stdout, `"recycle_bin_purged_scheduled_at":"9999-12-31T23:59:59.999999Z"`) {
		t.Errorf("recycle-bin --json does not keep the times sent:\n%s", r.stdout)
	}
	// --json is the entries' array (the service's total is not part of it:
	// TestEveryOutputHasOneShapeAFormat); the table's count line says it
	if r := faultRun(t, faultserver.Negative)("recycle-bin"); !strings.Contains(r.stdout, "an invalid total") {
		t.Errorf("the bin's table does not say the total sent is invalid:\n%s", r.stdout)
	}
}

// TestARepeatedBinEntryIsCountedOnce: the bin listing the same deletion
// twice made --check count three projects of two ("3 of 2 purge within
// 7d"); it is counted once, shown once, and named.
func TestARepeatedBinEntryIsCountedOnce(t *testing.T) {
	vd := faultRun(t, faultserver.RepeatEntry)
	r := vd("recycle-bin", "--check")
	if !strings.Contains(r.stdout, "2 projects purge within 7d") || !strings.Contains(r.stdout, "purging=2;") || strings.Count(r.stdout, "Binned 1") != 1 {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stderr, "Binned 1") || !strings.Contains(r.stderr, "2 times") {
		t.Errorf("the repeated entry is not named: %q", r.stderr)
	}
	r = vd("recycle-bin", "--purging-within", "30d")
	if strings.Count(r.stdout, "Binned 1") != 1 || !strings.Contains(r.stderr, "2 times") {
		t.Errorf("--purging-within: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestAListingSaysWhatChangedBetweenPages: a total that changes between
// pages (3, then 4 projects; 2, then 3 files) is said, and a record a
// later page repeats (shown once, as before) is named.
func TestAListingSaysWhatChangedBetweenPages(t *testing.T) {
	vd := faultRun(t, faultserver.TotalChanges)
	for args, want := range map[string]string{"projects": "3, then 4", "files " + faultserver.ProjectID: "2, then 3"} {
		r := vd(strings.Fields(args)...)
		if !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "total") {
			t.Errorf("%s: exit %d, stderr %q: the changed total (%s) is not said", args, r.code, r.stderr, want)
		}
	}
	r := faultRun(t, faultserver.RepeatEntry)("projects")
	if strings.Count(r.stdout, "Project 2") != 1 || !strings.Contains(r.stderr, "5d1c2d3e-0000-4000-8000-000000000002") {
		t.Errorf("a project listed on two pages: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestAnInvalidPurgeTimeIsNotLeftOutOfTheProbe: an entry whose purge
// time is invalid (the year 9999) may purge within any window: --check
// shows it and says so instead of leaving it out of its count unsaid.
func TestAnInvalidPurgeTimeIsNotLeftOutOfTheProbe(t *testing.T) {
	r := faultRun(t, faultserver.OutOfRange)("recycle-bin", "--check")
	if !strings.Contains(r.stdout, "Binned 1") || !strings.Contains(r.stdout, "purging=1;") || !strings.Contains(r.stderr, "invalid purge time") || r.code != 3 {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
