package faultserver

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The faults of issue 40: answers that are well formed and say more, or
// other, than they can mean. The upload faults keep a small vault (the
// project's files, what get_files and the file listing answer from) so
// that a resume has something true to reconcile against; only the upload's
// own answer lies.
const (
	UploadRepeatID Fault = "upload-repeat-id" // an upload's answer gives its first file's ID for every file
	UploadFewerIDs Fault = "upload-fewer-ids" // one ID fewer than the files sent, and get_files knows none of them
	UploadExtraIDs Fault = "upload-extra-ids" // two IDs more than the files sent
	UploadNotUUID  Fault = "upload-not-uuid"  // one file's ID is not a UUID
	// UnknownStatus: every file's processing_status is "completed", a value
	// the interface never named.
	UnknownStatus Fault = "unknown-status"
	// OutOfRange: a files_count of 10^30, a purge in the year 9999, a
	// deletion in the year 1, a size of 10^30.
	OutOfRange Fault = "out-of-range"
	// Negative: negative counts, sizes and totals.
	Negative Fault = "negative"
	// NotNumber: "NaN", "Infinity" and "1e400" where a number is expected.
	NotNumber Fault = "not-number"
	// RepeatEntry: the bin lists one entry twice, the project listing
	// lists a project on two pages, and the audit listing's next page
	// starts with the entry that ended the one before.
	RepeatEntry Fault = "repeat-entry"
	// TotalChanges: the project and file listings' totals differ from page
	// to page (2, then 3).
	TotalChanges Fault = "total-changes"
	// LyingHasMore: the file listing says has_more with no next_cursor,
	// and the project listing says one page when it has two.
	LyingHasMore Fault = "lying-has-more"
	// ErrorsInside: a 200 whose body holds an "errors" member beside the
	// answer (get_files, the upload, whoami, the bin).
	ErrorsInside Fault = "errors-inside"
	// NotUUID: IDs where the spec says UUID are other strings (the bin's
	// entries, get_files' file_id).
	NotUUID Fault = "not-uuid"
	// ForeignIDs: get_files answers for IDs it was not asked about, and
	// leaves out the ones it was.
	ForeignIDs Fault = "foreign-ids"
)

// answerFault reports whether fault is one of this file's, for the path.
func (s *Server) answerFault(r *http.Request, path string) bool {
	switch s.fault {
	case UploadRepeatID, UploadFewerIDs, UploadExtraIDs, UploadNotUUID, UnknownStatus, ErrorsInside, ForeignIDs:
		return path == "/api/v1/vault/upload_files/"+ProjectID || path == "/api/v1/vault/get_files" ||
			path == "/api/v1/vault/projects/"+ProjectID+"/files" || (s.fault == ErrorsInside && path != "/api/v1/logs/audit")
	case OutOfRange, Negative, NotNumber, RepeatEntry, TotalChanges, LyingHasMore, NotUUID:
		return true
	}
	return false
}

// vaultFile is one file of the vault the upload faults keep.
type vaultFile struct {
	ID, Name   string
	Size       int64
	UploadedAt time.Time
}

// vault is the project's files: one from before any test ("Share
// Purchase.pdf", FileID) and what the uploads stored.
type vault struct {
	mu    sync.Mutex
	files []vaultFile
	n     int
}

func (v *vault) init() {
	if v.files == nil {
		v.files = []vaultFile{{ID: FileID, Name: "Share Purchase.pdf", Size: 1000, UploadedAt: time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)}}
	}
}

// Files are the files the vault holds now.
func (s *Server) Files() []vaultFile {
	s.vault.mu.Lock()
	defer s.vault.mu.Unlock()
	s.vault.init()
	return append([]vaultFile(nil), s.vault.files...)
}

// SetWorkspace makes whoami answer for another workspace from now on (the
// token moved, or the profile's token was swapped for another's).
func (s *Server) SetWorkspace(id, name string) {
	s.wsMu.Lock()
	defer s.wsMu.Unlock()
	s.wsID, s.wsName = id, name
}

func (s *Server) workspace() (id, name string) {
	s.wsMu.Lock()
	defer s.wsMu.Unlock()
	if s.wsID == "" {
		return "w1", "Harrowgate LLP"
	}
	return s.wsID, s.wsName
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, path string) {
	q := r.URL.Query()
	switch {
	case r.Method == http.MethodPost && path == "/api/v1/vault/upload_files/"+ProjectID:
		s.upload(w, r)
	case path == "/api/v1/vault/get_files":
		s.getFiles(w, q)
	case path == "/api/v1/vault/projects/"+ProjectID+"/files":
		s.fileListing(w, q)
	case path == "/api/v1/vault/workspace/recycle_bin":
		writeJSON(w, 200, s.bin())
	case path == "/api/v1/vault/workspace/projects":
		writeJSON(w, 200, s.projectPage(q.Get("page")))
	case path == "/api/v1/logs/audit":
		writeJSON(w, 200, s.auditPage(q.Get("from")))
	default:
		body := s.body(path, q, nil)
		if body == "" {
			writeJSON(w, 404, `{"error":"Not found"}`)
			return
		}
		if s.fault == ErrorsInside && strings.HasPrefix(body, "{") {
			body = `{"errors":[{"error":"internal","detail":"partial answer"}],` + body[1:]
		}
		writeJSON(w, 200, body)
	}
}

// status is the processing status the vault's files are in.
func (s *Server) status(upper bool) string {
	st := "ready_to_query"
	if s.fault == UnknownStatus {
		st = "completed"
	}
	if upper {
		return strings.ToUpper(st)
	}
	return st
}

func (s *Server) getFiles(w http.ResponseWriter, q url.Values) {
	asked := strings.Split(q.Get("file_ids"), ",")
	files := s.Files()
	var els []string
	for _, id := range asked {
		var found *vaultFile
		for i := range files {
			if strings.EqualFold(files[i].ID, id) {
				found = &files[i]
			}
		}
		switch {
		case s.fault == ForeignIDs:
			els = append(els, fmt.Sprintf(`{"file_id":%q,"file_name":"Foreign.pdf","processing_status":"ready_to_query","content_type":"application/pdf"}`, uuidN("9f1c2d3e", len(els))))
		case found == nil || s.fault == UploadFewerIDs:
			els = append(els, fmt.Sprintf(`{"file_id":%q,"error":"not_found"}`, id))
		default:
			fid := found.ID
			if s.fault == NotUUID {
				fid = "not-a-uuid"
			}
			els = append(els, fmt.Sprintf(`{"file_id":%q,"file_name":%q,"processing_status":%q,"content_type":"application/pdf","deleted_at":null}`, fid, found.Name, s.status(false)))
		}
	}
	body := `{"response":{"content":[` + strings.Join(els, ",") + `]}}`
	if s.fault == ErrorsInside {
		body = `{"errors":[{"file_id":"` + FileID + `","error":"internal"}],` + body[1:]
	}
	writeJSON(w, 200, body)
}

// fileListing is the project's file listing from the vault, filtered by
// name as the service's (a case-insensitive substring), or the paging
// faults' two pages.
func (s *Server) fileListing(w http.ResponseWriter, q url.Values) {
	if s.fault == TotalChanges || s.fault == LyingHasMore || s.fault == RepeatEntry {
		writeJSON(w, 200, s.filePage(q.Get("cursor")))
		return
	}
	name := strings.ToLower(q.Get("name"))
	var els []string
	size := func(f vaultFile) string { return fmt.Sprint(f.Size) }
	switch s.fault {
	case OutOfRange:
		size = func(vaultFile) string { return "1000000000000000000000000000000" }
	case Negative:
		size = func(vaultFile) string { return "-1" }
	case NotNumber:
		size = func(vaultFile) string { return `"NaN"` }
	}
	for _, f := range s.Files() {
		if name != "" && !strings.Contains(strings.ToLower(f.Name), name) {
			continue
		}
		els = append(els, fmt.Sprintf(`{"id":%q,"name":%q,"processing_status":%q,"size":%s,"uploaded_at":%q}`,
			f.ID, f.Name, s.status(true), size(f), f.UploadedAt.Format(time.RFC3339Nano)))
	}
	writeJSON(w, 200, fmt.Sprintf(`{"response":{"content":{"files":[%s],"pagination":{"page_size":100,"has_more":false,"next_cursor":null,"total_count":%d}}}}`,
		strings.Join(els, ","), len(els)))
}

// filePage is a page of the paging faults' file listing: two pages.
func (s *Server) filePage(cursor string) string {
	file := func(i int) string {
		return fmt.Sprintf(`{"id":%q,"name":"Paged %d.pdf","processing_status":"READY_TO_QUERY","size":1000,"uploaded_at":"2025-06-01T10:00:00Z"}`, uuidN("4d1c2d3e", i), i)
	}
	switch {
	case cursor == "" && s.fault == LyingHasMore:
		return `{"response":{"content":{"files":[` + file(1) + `],"pagination":{"page_size":1,"has_more":true,"next_cursor":null,"total_count":2}}}}`
	case cursor == "" && s.fault == RepeatEntry:
		return `{"response":{"content":{"files":[` + file(1) + `,` + file(2) + `],"pagination":{"page_size":2,"has_more":true,"next_cursor":"p2","total_count":3}}}}`
	case cursor == "":
		return `{"response":{"content":{"files":[` + file(1) + `,` + file(2) + `],"pagination":{"page_size":2,"has_more":true,"next_cursor":"p2","total_count":2}}}}`
	case s.fault == RepeatEntry:
		return `{"response":{"content":{"files":[` + file(2) + `,` + file(3) + `],"pagination":{"page_size":2,"has_more":false,"next_cursor":null,"total_count":3}}}}`
	}
	return `{"response":{"content":{"files":[` + file(3) + `],"pagination":{"page_size":2,"has_more":false,"next_cursor":null,"total_count":3}}}}`
}

// projectPage is a page of the project listing: two pages of two
// projects (the second repeating one under RepeatEntry), the total
// changing between them under TotalChanges, one page claimed under
// LyingHasMore.
func (s *Server) projectPage(page string) string {
	project := func(i int, count string) string {
		return fmt.Sprintf(`{"id":%q,"name":"Project %d","files_count":%s,"size_bytes":%s,"updated_at":"2025-06-01T10:00:00Z","creator_email":"a@harrowgate-law.com"}`,
			uuidN("5d1c2d3e", i), i, count, count)
	}
	count := "1"
	switch s.fault {
	case OutOfRange:
		count = "1000000000000000000000000000000"
	case Negative:
		count = "-7"
	case NotNumber:
		count = `"Infinity"`
	}
	total, pages := "4", "2"
	switch {
	case s.fault == TotalChanges && page != "2":
		total = "3"
	case s.fault == LyingHasMore:
		pages = "1"
	case s.fault == Negative:
		total = "-4"
	}
	items := project(1, count) + "," + project(2, count)
	if page == "2" {
		items = project(3, count) + "," + project(4, count)
		if s.fault == RepeatEntry {
			items = project(2, count) + "," + project(3, count)
			total = "3"
		}
	} else if s.fault == RepeatEntry {
		total = "3"
	}
	return `{"response":{"content":{"pagination":{"page":` + cmpOr(page, "1") + `,"per_page":2,"total":` + total + `,"total_pages":` + pages + `},"projects":[` + items + `]}}}`
}

func cmpOr(a, b string) string {
	if a == "" {
		return b
	}
	return a
}

// bin is the recycle bin of the number, repeat and ID faults.
func (s *Server) bin() string {
	entry := func(i int, deleted, purge, count string) string {
		id, res := uuidN("6e1c2d3e", i), uuidN("7e1c2d3e", i)
		if s.fault == NotUUID {
			id, res = fmt.Sprintf("entry-%d", i), fmt.Sprintf("project-%d", i)
		}
		return fmt.Sprintf(`{"id":%q,"resource_id":%q,"resource_type":"vault_project","recycle_bin_status":"deleted","deleted_at":%q,"recycle_bin_purged_scheduled_at":%q,"deleted_by_user_email":"a@harrowgate-law.com","vault_project":{"id":%q,"name":"Binned %d","files_count":%s}}`,
			id, res, deleted, purge, res, i, count)
	}
	now := time.Now().UTC()
	soon, recent := now.Add(24*time.Hour).Format(time.RFC3339Nano), now.Add(-24*time.Hour).Format(time.RFC3339Nano)
	total := 2
	var items []string
	switch s.fault {
	case OutOfRange:
		items = []string{entry(1, "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "1000000000000000000000000000000"), entry(2, recent, soon, "3")}
	case Negative:
		items, total = []string{entry(1, recent, soon, "-5"), entry(2, recent, soon, "3")}, -2
	case NotNumber:
		items = []string{entry(1, recent, soon, `"NaN"`), entry(2, recent, soon, `"Infinity"`)}
	case RepeatEntry:
		items = []string{entry(1, recent, soon, "1"), entry(2, recent, soon, "1"), entry(1, recent, soon, "1")}
	default:
		items = []string{entry(1, recent, soon, "1"), entry(2, recent, soon, "1")}
	}
	body := fmt.Sprintf(`{"items":[%s],"total":%d}`, strings.Join(items, ","), total)
	if s.fault == ErrorsInside {
		body = `{"errors":[{"error":"internal"}],` + body[1:]
	}
	return body
}

// auditPage is the audit listing under RepeatEntry: the page after an
// entry starts with that entry again.
func (s *Server) auditPage(from string) string {
	entry := func(i int) string {
		return fmt.Sprintf(`{"id":%q,"timestamp":"2025-06-01T10:0%d:00","type":"auth:login","user":"a@harrowgate-law.com","ip":"10.0.0.1","data":{}}`, uuidN("3a1c2d3e", i), i)
	}
	switch from {
	case uuidN("3a1c2d3e", 1):
		return `[` + entry(1) + `,` + entry(2) + `]`
	case uuidN("3a1c2d3e", 2):
		return `[` + entry(2) + `]`
	}
	return `[` + entry(1) + `]`
}
