package widgets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestBoundedJSONIsIndentWithinTheLimits: a document inside every limit is
// drawn exactly as json.Indent draws it.
func TestBoundedJSONIsIndentWithinTheLimits(t *testing.T) {
	for _, doc := range []string{
		`{"a":1,"b":[true,false,null],"c":{"d":"e\"f\\u001b","g":[]},"h":{}}`,
		` [ 1 , -2.5e3 , "x" , { "k" : [ { } ] } ] `,
		`"just a string"`, `42`, `{}`, `[]`,
		`{"übung":"naïve ☃","esc":"\ud83d\ude00"}`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, bytes.TrimSpace([]byte(doc)), "  ", "  "); err != nil {
			t.Fatal(err)
		}
		got, partial := BoundedJSON([]byte(doc), "  ", DetailJSON)
		if got != "  "+want.String() || partial {
			t.Errorf("%s:\n got %q (partial %v)\nwant %q", doc, got, partial, "  "+want.String())
		}
	}
}

// hostileDocs are the shapes issue 26.6 and its neighbours send.
func hostileDocs() map[string]string {
	wide := make([]string, 100_000)
	for i := range wide {
		wide[i] = fmt.Sprintf(`"key%06d":%d`, i, i)
	}
	return map[string]string{
		"deep objects": strings.Repeat(`{"a":`, 9000) + "1" + strings.Repeat("}", 9000),
		"deep arrays":  strings.Repeat("[", 9000) + strings.Repeat("]", 9000),
		"too deep":     strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000), // json.Valid refuses it
		"wide object":  "{" + strings.Join(wide, ",") + "}",
		"long string":  `{"s":"` + strings.Repeat("x", 1<<20) + `"}`,
		"long key":     `{"` + strings.Repeat("k", 1<<20) + `":1}`,
		"long number":  `[` + strings.Repeat("9", 1<<20) + `]`,
		"mixed": `{"deep":` + strings.Repeat(`[{"a":`, 3000) + `"x"` + strings.Repeat("}]", 3000) +
			`,"wide":[` + strings.Repeat(`"`+strings.Repeat("y", 3000)+`",`, 2000) + `1],"s":"` + strings.Repeat(`\u00e9`, 200_000) + `"}`,
		"not json": strings.Repeat("{", 1<<20),
	}
}

// TestBoundedJSONBoundsHostileShapes: each hostile shape draws in a bounded
// number of bytes, says what it left out, and allocates a small multiple
// of what it draws.
func TestBoundedJSONBoundsHostileShapes(t *testing.T) {
	lim := DetailJSON
	for name, doc := range hostileDocs() {
		raw := []byte(doc)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got, partial := BoundedJSON(raw, "  ", lim)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		if max := lim.Bytes + 2*lim.String + 4096; len(got) > max {
			t.Errorf("%s: drew %d bytes, over %d", name, len(got), max)
		}
		if alloc > 2<<20 {
			t.Errorf("%s: allocated %d KB drawing %d KB", name, alloc>>10, len(doc)>>10)
		}
		if !partial || !strings.Contains(got, "…") {
			t.Errorf("%s: not marked as drawn in part:\n%.300s", name, got)
		}
		if strings.Count(got, "\n") > lim.Bytes/2 {
			t.Errorf("%s: %d lines", name, strings.Count(got, "\n"))
		}
	}
}

func TestBoundedJSONSaysWhatItLeftOut(t *testing.T) {
	lim := JSONLimits{Depth: 2, Items: 2, String: 8, Bytes: 1 << 10}
	got, _ := BoundedJSON([]byte(`{"a":{"b":{"c":1,"d":2}},"e":"0123456789abc","f":1,"g":2}`), "", lim)
	want := "{\n" +
		"  \"a\": {\n" +
		"    \"b\": {…} 2 keys, 13 B (deeper than 2 levels)\n" +
		"  },\n" +
		"  \"e\": \"0123456… (7 B more),\n" +
		"  … 2 more keys, 12 B\n" +
		"}"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func BenchmarkBoundedJSONDeep(b *testing.B) {
	raw := []byte(hostileDocs()["deep objects"])
	b.ReportAllocs()
	for b.Loop() {
		BoundedJSON(raw, "  ", DetailJSON)
	}
}
