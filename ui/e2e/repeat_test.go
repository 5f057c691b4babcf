package e2e

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/apitest/faultserver"
)

// TestRepeatingListingsEnd (issue 26.4): a listing that repeats a page
// (the same IDs under a new page number or cursor), hands out the same
// cursor again, or goes on past its own total ends with exit 1 and one line
// naming the endpoint, and no record is written twice.
func TestRepeatingListingsEnd(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end: builds the binary")
	}
	bin := buildBinary(t)
	for _, tc := range []struct {
		fault faultserver.Fault
		args  []string
		ep    string
	}{
		{faultserver.RepeatPage, []string{"projects"}, "GET /api/v1/vault/workspace/projects"},
		{faultserver.RepeatPage, []string{"projects", "--jsonl"}, "GET /api/v1/vault/workspace/projects"},
		{faultserver.RepeatPage, []string{"files", faultserver.ProjectID, "--jsonl"}, "GET /api/v1/vault/projects/{project_id}/files"},
		{faultserver.RepeatCursor, []string{"projects", "--jsonl"}, "GET /api/v1/vault/workspace/projects"},
		{faultserver.RepeatCursor, []string{"files", faultserver.ProjectID, "--jsonl"}, "GET /api/v1/vault/projects/{project_id}/files"},
	} {
		t.Run(string(tc.fault)+"/"+strings.Join(tc.args, " "), func(t *testing.T) {
			s := faultserver.Start(tc.fault)
			defer s.Close()
			out, errs, code, _ := runHostile(t, bin, s, tc.args...)
			if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, tc.ep) {
				t.Errorf("exit %d, stderr %q, want one line naming %s", code, errs, tc.ep)
			}
			if out.dups > 0 {
				t.Errorf("%d records written twice (%d lines)", out.dups, out.lines)
			}
			if s.Requests() > 3 {
				t.Errorf("%d requests", s.Requests())
			}
		})
	}
}
