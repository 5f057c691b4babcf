package sim

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"strings"
	"time"
)

// uploadedPart is what the simulator keeps of one uploaded file: metadata
// only. The content is hashed and counted while it streams past.
type uploadedPart struct {
	name        string
	contentType string
	size        int64
}

var extTypes = map[string]string{
	".pdf":  "application/pdf",
	".doc":  "application/msword",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xls":  "application/vnd.ms-excel",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".ppt":  "application/vnd.ms-powerpoint",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".txt":  "text/plain",
	".csv":  "text/csv",
	".rtf":  "application/rtf",
	".eml":  "message/rfc822",
	".msg":  "application/vnd.ms-outlook",
	".zip":  "application/zip",
}

func contentTypeFor(name, declared string) string {
	if ct, ok := extTypes[strings.ToLower(path.Ext(name))]; ok {
		return ct
	}
	if declared != "" && declared != "application/octet-stream" {
		if mt, _, err := mime.ParseMediaType(declared); err == nil {
			return mt
		}
	}
	return "application/octet-stream"
}

type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

// handleUpload serves POST /api/v1/vault/upload_files/{id}. The body is read
// as a stream with multipart.Reader (never ParseMultipartForm): each file
// part is copied into a hash and a byte count and then forgotten, so memory
// stays flat whatever the file size. Nothing is stored unless the whole
// request is valid. The state lock is taken only after the body is read, so
// a slow upload does not stall other requests.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request, tok *Token) {
	s.mu.Lock()
	exists := s.st.liveProject(r.PathValue("id")) != nil
	s.mu.Unlock()
	if !exists {
		writeError(w, http.StatusNotFound, "Project not found")
		return
	}
	parts, paths, mode, err := s.readUpload(r)
	if err != nil {
		var he *httpError
		if errors.As(err, &he) {
			writeError(w, he.status, he.msg)
		} else {
			writeError(w, http.StatusBadRequest, "Malformed multipart body: "+err.Error())
		}
		return
	}
	now := s.lock()
	defer s.mu.Unlock()
	p := s.st.liveProject(r.PathValue("id"))
	if p == nil {
		writeError(w, http.StatusNotFound, "Project not found")
		return
	}
	if why := uploadLimit(p, parts, mode); why != "" {
		writeError(w, http.StatusBadRequest, why)
		return
	}
	ids := []string{}
	for i, up := range parts {
		fp := ""
		if i < len(paths) {
			fp = paths[i]
		}
		if id := s.st.storeUpload(p, up, fp, mode, now, s.opts); id != "" {
			ids = append(ids, id)
		}
	}
	p.UpdatedAt = now
	s.recordAPI(r, tok, AuditAPIUpload, now, map[string]any{"project_id": p.ID, "files_count": len(ids)})
	writeJSON(w, http.StatusCreated, map[string]any{"project_id": p.ID, "file_ids": ids})
}

func (s *Server) readUpload(r *http.Request) (parts []uploadedPart, paths []string, mode string, err error) {
	mt, params, perr := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if perr != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, nil, "", &httpError{http.StatusBadRequest, "Expected a multipart/form-data body"}
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, "", err
		}
		switch part.FormName() {
		case "files":
			if len(parts) == MaxFilesPerUpload {
				return nil, nil, "", &httpError{http.StatusBadRequest,
					fmt.Sprintf("Too many files: at most %d per request", MaxFilesPerUpload)}
			}
			name := path.Base(strings.ReplaceAll(part.FileName(), "\\", "/"))
			if name == "" || name == "." || name == "/" {
				return nil, nil, "", &httpError{http.StatusBadRequest, "Missing file name"}
			}
			h := sha256.New()
			n, err := io.Copy(h, io.LimitReader(part, s.opts.MaxFileBytes+1))
			if err != nil {
				return nil, nil, "", err
			}
			if n > s.opts.MaxFileBytes {
				return nil, nil, "", &httpError{http.StatusRequestEntityTooLarge,
					fmt.Sprintf("File %q is larger than the %s limit", name, sizeLabel(s.opts.MaxFileBytes))}
			}
			parts = append(parts, uploadedPart{name: name, contentType: contentTypeFor(name, part.Header.Get("Content-Type")), size: n})
		case "file_paths", "duplicate_mode":
			v, err := io.ReadAll(io.LimitReader(part, 4097))
			if err != nil {
				return nil, nil, "", err
			}
			if len(v) > 4096 {
				return nil, nil, "", &httpError{http.StatusBadRequest, part.FormName() + " is too long"}
			}
			if part.FormName() == "file_paths" {
				paths = append(paths, string(v))
			} else {
				mode = strings.ToLower(strings.TrimSpace(string(v)))
			}
		default:
			// Unknown parts are drained and ignored.
			if _, err := io.Copy(io.Discard, part); err != nil {
				return nil, nil, "", err
			}
		}
	}
	if len(parts) == 0 {
		return nil, nil, "", &httpError{http.StatusBadRequest, "Missing file"}
	}
	switch mode {
	case "":
		mode = "skip" // undocumented default; the documented example is skip
	case "skip", "replace", "keep":
	default:
		return nil, nil, "", &httpError{http.StatusBadRequest, "duplicate_mode must be skip, replace or keep"}
	}
	return parts, paths, mode, nil
}

func sizeLabel(n int64) string {
	if n%1_000_000 == 0 {
		return fmt.Sprintf("%d MB", n/1_000_000)
	}
	return fmt.Sprintf("%d byte", n)
}

// storeUpload records one uploaded file per duplicate_mode and returns its
// new id, or "" when skip leaves an existing file in place.
func (st *state) storeUpload(p *project, up uploadedPart, filePath, mode string, now time.Time, o Options) string {
	name := up.name
	root := ""
	if old := p.live[name]; old != nil {
		switch mode {
		case "skip":
			return ""
		case "replace":
			root = old.ID
			if old.RootFileID != "" {
				root = old.RootFileID
			}
			st.retireFile(old, now)
		case "keep":
			name = freeName(p, name)
		}
	}
	f := &file{
		ID: uuid4(st.rng), Name: name, Path: filePath, ContentType: up.contentType,
		Status: StatusProcessing, Size: up.size, UploadedAt: now, RootFileID: root, Project: p,
	}
	if !stuck(f.ID, o.StuckShare) {
		f.ReadyAt = now.Add(o.ProcessingDelay)
	}
	st.addFile(f)
	return f.ID
}

// freeName turns "report.pdf" into "report (1).pdf", "report (2).pdf", ...
// until the name is unused in the project.
func freeName(p *project, name string) string {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; ; i++ {
		c := fmt.Sprintf("%s (%d)%s", stem, i, ext)
		if p.live[c] == nil {
			return c
		}
	}
}
