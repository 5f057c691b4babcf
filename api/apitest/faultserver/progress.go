package faultserver

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The faults of issue 26: answers that look like progress and are not (a
// listing that repeats itself, bytes that bring no item), and entries that
// are few but wide.
const (
	// WideNames: the recycle bin holds Count entries (default 20,000)
	// whose names are 10 KB long, written as they are
	// generated. Few entries, many bytes.
	WideNames Fault = "wide-names"
	// RepeatPage: the project listing answers every page with the same
	// 100 projects, echoing the page asked for, under an enormous
	// total_pages; the file listing answers every page with the same 100
	// files and a new cursor each time.
	RepeatPage Fault = "repeat-page"
	// RepeatCursor: the file listing hands out new files under the same
	// next_cursor every time; the project listing sends new projects on
	// every page beyond what its own total (100) allows.
	RepeatCursor Fault = "repeat-cursor"
	// Padding faults: a 200 whose body brings no listing item, ever. With
	// Trickle they come slowly, else as fast as the client reads.
	SpaceInItem     Fault = "space-in-item"     // an item opened, then whitespace inside it forever
	EndlessPadding  Fault = "endless-padding"   // an object of members beside the (empty) items, forever
	EndlessKey      Fault = "endless-key"       // a key that never closes
	EndlessBrackets Fault = "endless-brackets"  // [ inside the items array, forever
	EndlessCommas   Fault = "endless-commas"    // , after the first item, forever (no JSON at all)
	SpaceAfterItems Fault = "space-after-items" // ten items, then whitespace forever
)

// Count sets how many entries WideNames sends.
func Count(n int) Option { return func(s *Server) { s.count = n } }

// Trickle makes the padding faults write one small chunk every d instead
// of as fast as they can.
func Trickle(d time.Duration) Option { return func(s *Server) { s.trickle = d } }

// progressFault reports whether fault is one of this file's, for the path.
func (s *Server) progressFault(path string) bool {
	switch s.fault {
	case WideNames:
		return path == "/api/v1/vault/workspace/recycle_bin"
	case RepeatPage, RepeatCursor:
		return path == "/api/v1/vault/workspace/projects" || path == "/api/v1/vault/projects/"+ProjectID+"/files"
	case SpaceInItem, EndlessPadding, EndlessKey, EndlessBrackets, EndlessCommas, SpaceAfterItems:
		return true
	}
	return false
}

// uuidN is the n-th of a run of distinct IDs.
func uuidN(prefix string, n int) string { return fmt.Sprintf("%s-0000-4000-8000-%012d", prefix, n) }

func (s *Server) progress(w http.ResponseWriter, r *http.Request, path string) {
	w.Header().Set("Content-Type", "application/json")
	write := s.writer(w, r)
	switch s.fault {
	case WideNames:
		s.wideNames(write)
	case RepeatPage, RepeatCursor:
		w.Write([]byte(s.repeating(path, r.URL.Query().Get("page"))))
	default:
		s.padding(w, write)
	}
}

func (s *Server) wideNames(write func([]byte) bool) {
	n := s.count
	if n == 0 {
		n = 20_000
	}
	name := strings.Repeat("n", 10_000)
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"%s","resource_id":"%s","deleted_at":"2025-06-01T10:00:00Z","recycle_bin_purged_scheduled_at":"2025-07-01T10:00:00Z","deleted_by_user_email":"a@harrowgate-law.com","vault_project":{"id":"%s","name":"%d %s","files_count":1}}`,
			uuidN("6f1c2d3e", i), uuidN("7a1c2d3e", i), uuidN("7a1c2d3e", i), i, name)
		if b.Len() > 64<<10 {
			if !write(b.Bytes()) {
				return
			}
			b.Reset()
		}
	}
	fmt.Fprintf(&b, `],"total":%d}`, n)
	write(b.Bytes())
}

// repeating is one page of RepeatPage or RepeatCursor.
func (s *Server) repeating(path, page string) string {
	k := int(s.n.Load()) // new IDs per request, for the faults that send new ones
	var items []string
	for i := range 100 {
		if path == "/api/v1/vault/workspace/projects" {
			id := uuidN("5e1c2d3e", i)
			if s.fault == RepeatCursor {
				id = uuidN("5e1c2d3e", k*100+i)
			}
			items = append(items, `{"id":"`+id+`","name":"Repeated `+strconv.Itoa(i)+`","files_count":1,"size_bytes":"1000","updated_at":"2025-06-01T10:00:00Z","creator_email":"a@harrowgate-law.com"}`)
			continue
		}
		id := uuidN("4e1c2d3e", i)
		if s.fault == RepeatCursor {
			id = uuidN("4e1c2d3e", k*100+i)
		}
		items = append(items, `{"id":"`+id+`","name":"Repeated `+strconv.Itoa(i)+`.pdf","processing_status":"READY_TO_QUERY","size":1000,"uploaded_at":"2025-06-01T10:00:00Z"}`)
	}
	list := strings.Join(items, ",")
	if path == "/api/v1/vault/workspace/projects" {
		if page == "" {
			page = "1"
		}
		total, pages := "10000000000", "100000000"
		if s.fault == RepeatCursor {
			total = "100"
		}
		return `{"response":{"content":{"pagination":{"page":` + page + `,"per_page":100,"total":` + total + `,"total_pages":` + pages + `},"projects":[` + list + `]}}}`
	}
	cursor := "same"
	if s.fault == RepeatPage {
		cursor = "c" + strconv.Itoa(k)
	}
	return `{"response":{"content":{"files":[` + list + `],"pagination":{"page_size":100,"has_more":true,"next_cursor":"` + cursor + `","total_count":10000000000}}}}`
}

// padding writes a body that opens like a listing and then brings no
// item, ever.
func (s *Server) padding(w http.ResponseWriter, write func([]byte) bool) {
	open, unit := `{"items":[{"id":"e1",`, " \n\t"
	switch s.fault {
	case EndlessPadding:
		open, unit = `{"items":[]`, `,"pad":0`
	case EndlessKey:
		open, unit = `{"items":[],"`, "k"
	case EndlessBrackets:
		open, unit = `{"items":[`, "["
	case EndlessCommas:
		open, unit = `{"items":[{"id":"e1"}`, ","
	case SpaceAfterItems:
		b := RecycleBinBody(10)
		open, unit = string(b[:len(b)-len(`],"total":10}`)]), " \n\t"
	}
	size := 64 << 10
	if s.trickle > 0 {
		size = 64
	}
	chunk := []byte(strings.Repeat(unit, max(1, size/len(unit))))
	if !write([]byte(open)) {
		return
	}
	for write(chunk) {
		if s.trickle > 0 {
			w.(http.Flusher).Flush()
			select {
			case <-time.After(s.trickle):
			case <-s.stop:
				return
			}
		}
	}
}
