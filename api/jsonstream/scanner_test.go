package jsonstream

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

func scanAll(t *testing.T, r io.Reader) (items []string, others map[string]string, err error) {
	t.Helper()
	others = map[string]string{}
	err = NewScanner(r, Default).Object("items", func(raw []byte) error {
		items = append(items, string(raw))
		return nil
	}, func(k string, raw []byte) error {
		others[k] = string(raw)
		return nil
	})
	return items, others, err
}

func TestScannerSplitsItems(t *testing.T) {
	doc := " {\"total\" : 3 ,\"x\\\"y\":[1,{\"a\":\"]\"}], \"items\":[ {\"s\":\"q\\\\\\\"}{[\",\"n\":[1,[2]]} ,\n\"str\\\"\",-1.5e3,true,null,[] ,{}],\"z\":false}\n "
	for name, r := range map[string]io.Reader{
		"whole":    strings.NewReader(doc),
		"one byte": iotest.OneByteReader(strings.NewReader(doc)),
		"half":     iotest.HalfReader(strings.NewReader(doc)),
	} {
		items, others, err := scanAll(t, r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := []string{`{"s":"q\\\"}{[","n":[1,[2]]}`, `"str\""`, `-1.5e3`, `true`, `null`, `[]`, `{}`}
		if fmt.Sprint(items) != fmt.Sprint(want) {
			t.Errorf("%s: items %q", name, items)
		}
		if others["total"] != "3" || others[`x"y`] != `[1,{"a":"]"}]` || others["z"] != "false" {
			t.Errorf("%s: others %q", name, others)
		}
	}
}

// Every item is what encoding/json sees, for many random documents, read in
// small random chunks and with items larger than the buffer.
func TestScannerAgreesWithEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var gen func(depth int) any
	gen = func(depth int) any {
		switch k := rng.IntN(7); {
		case k == 0 || depth > 3:
			return strings.Repeat("x\"\\]}é\u2028", rng.IntN(4)) + fmt.Sprint(rng.IntN(100))
		case k == 1:
			return rng.Float64() * 1e6
		case k == 2:
			return rng.IntN(2) == 0
		case k == 3:
			return nil
		case k == 4:
			a := make([]any, rng.IntN(4))
			for i := range a {
				a[i] = gen(depth + 1)
			}
			return a
		default:
			m := map[string]any{}
			for range rng.IntN(4) {
				m[fmt.Sprint("k\"", rng.IntN(9))] = gen(depth + 1)
			}
			return m
		}
	}
	for n := range 200 {
		items := make([]any, rng.IntN(20))
		for i := range items {
			items[i] = gen(0)
		}
		if n%50 == 0 {
			items = append(items, strings.Repeat("big", scanBuf)) // larger than the buffer
		}
		doc, _ := json.MarshalIndent(map[string]any{"items": items, "total": len(items), "more": gen(0)}, "", " ")
		got, others, err := scanAll(t, iotest.HalfReader(bytes.NewReader(doc)))
		if err != nil || len(got) != len(items) || others["total"] != fmt.Sprint(len(items)) {
			t.Fatalf("doc %d: %v, %d items", n, err, len(got))
		}
		for i, raw := range got {
			var v any
			if err := json.Unmarshal([]byte(raw), &v); err != nil {
				t.Fatalf("doc %d item %d: %v", n, i, err)
			}
			a, _ := json.Marshal(v)
			b, _ := json.Marshal(items[i])
			if !bytes.Equal(a, b) {
				t.Fatalf("doc %d item %d: %s != %s", n, i, a, b)
			}
		}
		// Every truncation is reported as such, never as success.
		cut := rng.IntN(len(bytes.TrimSpace(doc)))
		if _, _, err := scanAll(t, bytes.NewReader(doc[:cut])); !errors.Is(err, ErrTruncated) {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("doc %d cut at %d: %v", n, cut, err)
			}
		}
	}
}

func TestScannerRejectsBadStructure(t *testing.T) {
	for _, doc := range []string{`[]`, `{"items":[1 2]}`, `{"items" 1}`, `{"items":[1]} x`, `{,}`, `{"a":}`} {
		if _, _, err := scanAll(t, strings.NewReader(doc)); err == nil {
			t.Errorf("%s: accepted", doc)
		}
	}
}

// gateReader hands out one chunk a read and notes the progress marks as
// each read begins: what the reader had counted as progress so far.
type gateReader struct {
	chunks []string
	gate   *Progress
	marks  []uint64
}

func (r *gateReader) Read(p []byte) (int, error) {
	r.marks = append(r.marks, r.gate.Marks())
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	r.chunks = r.chunks[1:]
	return n, nil
}

// TestScannerMarksOnlyItemsAsProgress: the stall timer is re-armed by what
// the scanner marks (issue 26.10): each item of the array, and a read
// inside an item that brought more than whitespace; whitespace anywhere
// and members beside the array are not progress.
func TestScannerMarksOnlyItemsAsProgress(t *testing.T) {
	g := &Progress{}
	r := &gateReader{gate: g, chunks: []string{`{"items":[`, "   \n", `{"id":"a",`, "     ", `"n":1}`, "  ", `,{"id":"b"}`, "   ", `],"pad":0,"pad":1`, "   ", `}`}}
	sc := NewScanner(r, Default)
	sc.Progress = g
	if err := sc.Object("items", func([]byte) error { return nil }, func(string, []byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	// before each read: the open, whitespace, the item's first part (read
	// while looking for a closing bracket), whitespace in it, its end (a
	// mark for the bytes, one for the item), whitespace, the second item
	// (one mark), then nothing more: padding, whitespace, the end
	if want := "[0 0 0 0 0 2 2 3 3 3 3 3]"; fmt.Sprint(r.marks) != want {
		t.Errorf("marks at each read %v, want %s", r.marks, want)
	}
}
