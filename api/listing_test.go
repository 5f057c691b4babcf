package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestListingPagesInOrder: page is called after the last item of each page
// and before the next page is asked for, Summary carries the listing's own
// total, and an error from page stops the listing as it is.
func TestListingPagesInOrder(t *testing.T) {
	var asked atomic.Int32
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("page"))
		asked.Add(1)
		fmt.Fprintf(w, `{"response":{"content":{"projects":[{"id":"%d-a"},{"id":"%d-b"}],"pagination":{"page":%d,"total":6,"total_pages":3}}}}`, n, n, n)
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	var log []string
	s, err := h.c.Projects(ProjectQuery{}).Each(context.Background(), func(p *Project, it RawItem) error {
		log = append(log, fmt.Sprintf("%s@%d", p.ID, asked.Load()))
		return nil
	}, func() error {
		log = append(log, fmt.Sprintf("page@%d", asked.Load()))
		return nil
	})
	want := "[1-a@1 1-b@1 page@1 2-a@2 2-b@2 page@2 3-a@3 3-b@3 page@3]"
	if err != nil || fmt.Sprint(log) != want || s != (Summary{Total: 6, HasTotal: true}) {
		t.Errorf("got %v %+v %v, want %s", log, s, err, want)
	}

	stop := errors.New("enough")
	asked.Store(0)
	pages := 0
	_, err = h.c.Projects(ProjectQuery{}).Raw(context.Background(), func(RawItem) error { return nil }, func() error { pages++; return stop })
	if err != stop || pages != 1 || asked.Load() != 1 {
		t.Errorf("page's error: %v after %d pages and %d requests, want it as is after 1", err, pages, asked.Load())
	}
}

// TestListingOfOneBody: the recycle bin calls page once, at its end; a
// body without "total" says so; a listing read twice asks twice and hands
// the same items; Collect's slice is never nil.
func TestListingOfOneBody(t *testing.T) {
	var asked atomic.Int32
	body := `{"items":[{"id":"a"},{"id":"b"}],"total":2}`
	h := newHarness(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		fmt.Fprint(w, body)
	}), func(c *Config) { c.Limits = Limits{Vault: -1} })
	l := h.c.RecycleBin(RecycleBinQuery{})
	for range 2 {
		var log []string
		s, err := l.Raw(context.Background(), func(it RawItem) error { log = append(log, string(it.Bytes)); return nil },
			func() error { log = append(log, "end"); return nil })
		if err != nil || fmt.Sprint(log) != `[{"id":"a"} {"id":"b"} end]` || s != (Summary{Total: 2, HasTotal: true}) {
			t.Errorf("Raw: %v %+v %v", log, s, err)
		}
	}
	if asked.Load() != 2 {
		t.Errorf("two reads asked %d times", asked.Load())
	}
	body = `{"items":[]}`
	items, s, err := l.Collect(context.Background())
	if err != nil || items == nil || len(items) != 0 || s.HasTotal {
		t.Errorf("an empty bin without a total: %#v %+v %v", items, s, err)
	}
}

// TestRawRefusesAnItemThatIsNotAnObject: the raw recycle bin hands out only
// objects (or null), as a decode would have read them; the error names the
// item and nothing after it is handed out.
func TestRawRefusesAnItemThatIsNotAnObject(t *testing.T) {
	h := newHarness(t, jsonHandler(200, `{"items":[{"id":"a"},[1],{"id":"c"}],"total":3}`), func(c *Config) { c.Limits = Limits{Vault: -1} })
	n := 0
	_, err := h.c.RecycleBin(RecycleBinQuery{}).Raw(context.Background(), func(RawItem) error { n++; return nil }, nil)
	if kindOf(err) != KindMalformed || n != 1 || !strings.Contains(fmt.Sprint(err), "items item 2") || !strings.Contains(fmt.Sprint(err), "not a JSON object") {
		t.Errorf("%d items, then %v", n, err)
	}
}

// TestCollectedHandsItsItems: a listing held elsewhere hands its items
// through Raw and Each as their encoding, and calls page once.
func TestCollectedHandsItsItems(t *testing.T) {
	l := Collected(func(context.Context) ([]Project, Summary, error) {
		return []Project{{ID: "a"}, {ID: "b"}}, Summary{Total: 2, HasTotal: true}, nil
	})
	var log []string
	s, err := l.Each(context.Background(), func(p *Project, it RawItem) error {
		if !strings.Contains(string(it.Bytes), `"id":"`+p.ID+`"`) || it.Plain {
			return fmt.Errorf("item %s handed as %s (plain %v)", p.ID, it.Bytes, it.Plain)
		}
		log = append(log, p.ID)
		return nil
	}, func() error { log = append(log, "end"); return nil })
	if err != nil || fmt.Sprint(log) != "[a b end]" || s.Total != 2 {
		t.Errorf("%v %+v %v", log, s, err)
	}
}
