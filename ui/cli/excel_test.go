package cli

import (
	"strings"
	"testing"
)

// TestExcelFlag: --excel is --csv in the dialect Excel opens (the BOM,
// then CRLF line ends), the same records otherwise; with a JSON format it
// is a usage error.
func TestExcelFlag(t *testing.T) {
	_, vd := shapeSim(t)
	plain := vd("recycle-bin", "--csv")
	excel := vd("recycle-bin", "--excel")
	if plain.code != 0 || excel.code != 0 || !strings.HasPrefix(excel.stdout, "\ufeff") ||
		excel.stdout != "\ufeff"+strings.ReplaceAll(plain.stdout, "\n", "\r\n") {
		t.Errorf("--excel: exit %d %q\n%.200q\nwant the BOM and CRLF of\n%.200q", excel.code, excel.stderr, excel.stdout, plain.stdout)
	}
	if r := vd("projects", "--csv", "--excel"); r.code != 0 || !strings.HasPrefix(r.stdout, "\ufeffname,") {
		t.Errorf("--csv --excel: %d %q", r.code, r.stderr)
	}
	if r := vd("projects", "--excel", "--json"); r.code != ExitUsage || !strings.Contains(r.stderr, "--excel cannot be combined with --json") {
		t.Errorf("--excel --json: %d %q", r.code, r.stderr)
	}
}
