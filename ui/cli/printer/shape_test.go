package printer

import (
	"fmt"
	"strings"
	"testing"
)

// TestSplitterAnyCut: the JSON a command writes is cut into the same items
// however its writes are split.
func TestSplitterAnyCut(t *testing.T) {
	doc := `[{"a":"x]\"}","b":[1,{"c":2}]}, 12 ,"s\\",true,null,[[]]]` + "\n" + `{"o":1}` + "\n" + `-3.5e2 "t"`
	var want []string
	collect := func(dst *[]string) *splitter {
		return &splitter{
			emit:  func(raw []byte, in bool) error { *dst = append(*dst, fmt.Sprintf("%v:%s", in, raw)); return nil },
			array: func(open bool) error { *dst = append(*dst, fmt.Sprint("array ", open)); return nil },
		}
	}
	s := collect(&want)
	if s.feed([]byte(doc)) != nil || s.end() != nil || len(want) != 11 {
		t.Fatalf("whole: %q", want)
	}
	for cut := range len(doc) {
		var got []string
		s := collect(&got)
		if s.feed([]byte(doc[:cut])) != nil || s.feed([]byte(doc[cut:])) != nil || s.end() != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("cut %d: %q, want %q", cut, got, want)
		}
	}
}

// TestNotJSONOutputIsNamed: a command whose --json prints text says so.
func TestNotJSONOutputIsNamed(t *testing.T) {
	s := &shaper{}
	s.fail(fmt.Errorf("%w: x", errNotJSON))
	if !strings.Contains(s.err.Error(), "this command's output is not JSON") {
		t.Error(s.err)
	}
}
