// Package jqref is the tests' reference for --jq: jq's (gh's) own answer,
// the expression run by gojq on the whole --json document (a listing is
// one array), each result a line, a string raw but for escape sequences
// (the output's safety rule, ui/sanitize), anything else compact JSON.
// The command line's tests and the end-to-end ones compare --jq with it.
package jqref

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/itchyny/gojq"

	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// Answer is expr's answer on doc, as --jq must print it.
func Answer(t testing.TB, doc, expr string) string {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("the --json output is not JSON: %v", err)
	}
	q, err := gojq.Parse(expr)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for it := q.Run(v); ; {
		x, ok := it.Next()
		if !ok {
			break
		}
		if err, bad := x.(error); bad {
			t.Fatalf("%s: %v", expr, err)
		}
		if s, isStr := x.(string); isStr {
			out.WriteString(sanitize.Output(s))
		} else {
			b, _ := gojq.Marshal(x)
			out.Write(b)
		}
		out.WriteByte('\n')
	}
	return out.String()
}
