package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
)

func contextBackground() context.Context { return context.Background() }

// check holds one schedule's run to the walk's rules (TestStreamFaults).
func (wk *walker) check(w *walkWorld, inv invocation, sc schedule, r result) {
	if r.timedOut {
		wk.fail(inv, sc, r, "hung", "it did not end within 30 s")
		return
	}
	s, other := r.stdout, r.stderr
	if sc.stream == "stderr" {
		s, other = r.stderr, r.stdout
	}
	if !s.refused {
		return // this run never made that write (the world moved on since the clean run)
	}
	// what a stream took after it refused a write must go on from the
	// first byte refused (a follow's retry); anything else is a hole
	if len(s.after) > 0 && !s.resumed() {
		wk.fail(inv, sc, r, "hole", "after the %s write it went on with %q, which does not continue the output from the first byte refused (%q)",
			sc.kind, truncate(string(s.after), 80), truncate(string(s.remainder), 80))
	}
	lost := s.lost()
	if lost && r.code == 0 {
		wk.fail(inv, sc, r, "exit 0 with output lost", "exit 0, although %s lost what it was given from byte %d on", sc.stream, len(s.acked))
	}
	end := w.requests.Load()
	if s.freedAt != 0 {
		end = s.freedAt
	}
	if n := end - s.reqAtFail; n > 0 {
		wk.fail(inv, sc, r, "requests after the output was lost", "%d requests were sent after %s failed", n, sc.stream)
	}
	if sc.stream == "stdout" && !other.refused {
		wk.checkLine(inv, sc, r, lost)
	}
	if sc.stream == "stdout" {
		wk.checkFollow(inv, sc, r)
	}
}

// checkLine: a stdout that failed is said once on stderr, with what it
// took.
func (wk *walker) checkLine(inv invocation, sc schedule, r result, lost bool) {
	var said []string
	for _, l := range lines(r.stderr.acked) {
		// a follow waiting out a full disk says so at each try; the one
		// line is the last, when it gives up
		if strings.Contains(l, sc.kind.says()) && !strings.Contains(l, "; trying again in ") {
			said = append(said, l)
		}
	}
	switch {
	case len(said) == 0 && lost:
		wk.fail(inv, sc, r, "nothing said", "stderr does not say that stdout failed (%s)", sc.kind.says())
		return
	case len(said) > 1 && sc.kind != faultFreed:
		wk.fail(inv, sc, r, "said more than once", "stderr says %d times that stdout failed", len(said))
		return
	case len(said) == 0:
		return
	}
	m := reWritten.FindStringSubmatch(said[0])
	if m == nil {
		if lost {
			wk.fail(inv, sc, r, "what was written not said", "the line %q does not say what was written (\"nothing was written\", or \"N bytes were written\")", said[0])
		}
		return
	}
	took := len(r.stdout.acked)
	if m[2] != "" {
		if b := atoiComma(m[2]); b != took {
			wk.fail(inv, sc, r, "a count that is not what was written", "the line says %d bytes were written; stdout took %d", b, took)
		}
	} else if took != 0 {
		wk.fail(inv, sc, r, "a count that is not what was written", "the line says nothing was written; stdout took %d bytes", took)
	}
	if m[1] != "" {
		if n, ok := itemsIn(inv.args, r.stdout.acked); ok && atoiComma(m[1]) != n {
			wk.fail(inv, sc, r, "a count that is not what was written", "the line says %s items were written; stdout holds %d whole", m[1], n)
		}
	}
}

func atoiComma(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// itemsIn counts a listing's whole items in what stdout took, for the
// formats whose items can be counted without the command: JSON Lines (a
// line each), a --json array (a line each, after the opening line) and a
// CSV (a record each, after the header).
func itemsIn(args []string, b []byte) (int, bool) {
	has := func(f string) bool { return slices.Contains(args, f) }
	if has("--jq") || has("--template") {
		return 0, false
	}
	switch {
	case has("--jsonl"):
		return bytes.Count(b, []byte("\n")), true
	case has("--json"):
		return max(0, bytes.Count(b, []byte("\n"))-1), true
	case has("--csv"):
		rd := csv.NewReader(bytes.NewReader(b[:bytes.LastIndexByte(b, '\n')+1]))
		rd.FieldsPerRecord = -1
		n := 0
		for {
			_, err := rd.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				break // a record cut inside its quotes: not whole
			}
			n++
		}
		return max(0, n-1), true
	}
	return 0, false
}

// checkFollow: a follow's lines are whole entries, each once, in order,
// and its checkpoint names one of them that reached stdout whole.
func (wk *walker) checkFollow(inv invocation, sc schedule, r result) {
	if commandPathOf(inv.args) != "vaultdeck audit follow" || flagValue(inv.args, "--out") != "" || slices.Contains(inv.args, "-h") || slices.Contains(inv.args, "--help") {
		return
	}
	var ids []string
	for _, l := range lines(r.stdout.acked) {
		var e struct {
			ID string `json:"id"`
		}
		if json.Unmarshal([]byte(l), &e) != nil || e.ID == "" {
			if !slices.Contains(inv.args, "--jq") && !slices.Contains(inv.args, "--template") && !slices.Contains(inv.args, "--csv") {
				wk.fail(inv, sc, r, "follow output", "the follow wrote a line that is not a whole entry: %q", truncate(l, 120))
			}
			return
		}
		if len(ids) > 0 && strings.ToLower(e.ID) <= strings.ToLower(ids[len(ids)-1]) {
			wk.fail(inv, sc, r, "follow output", "the follow wrote entry %s after %s (a repeat, or out of order)", e.ID, ids[len(ids)-1])
		}
		ids = append(ids, e.ID)
	}
	if after := checkpointOf(inv); after != r.checkpoint && after != "" && !slices.Contains(ids, after) {
		wk.fail(inv, sc, r, "a record claiming lost output", "the checkpoint moved to %s, whose line did not reach stdout whole", after)
	}
}
