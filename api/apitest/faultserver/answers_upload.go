package faultserver

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"strings"
	"time"
)

// upload stores the files of a multipart upload as the service would
// (skip leaves an existing name alone and gives it no ID, replace and keep
// give each file a new one), then answers as the fault says.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	names, sizes, mode, err := readParts(r)
	if err != nil {
		writeJSON(w, 400, fmt.Sprintf(`{"error":%q}`, err.Error()))
		return
	}
	v := &s.vault
	v.mu.Lock()
	v.init()
	var ids []string
	for i, name := range names {
		exists := false
		for _, f := range v.files {
			exists = exists || f.Name == name
		}
		if exists && mode == "skip" {
			continue
		}
		if exists && mode == "keep" {
			name = strings.TrimSuffix(name, path.Ext(name)) + " (1)" + path.Ext(name)
		}
		v.n++
		f := vaultFile{ID: uuidN("9a1c2d3e", v.n), Name: name, Size: sizes[i], UploadedAt: time.Now().UTC()}
		v.files = append(v.files, f)
		ids = append(ids, f.ID)
	}
	v.mu.Unlock()
	switch s.fault {
	case UploadRepeatID:
		for i := range ids {
			ids[i] = ids[0]
		}
	case UploadFewerIDs:
		if len(ids) > 0 {
			ids = ids[:len(ids)-1]
		}
	case UploadExtraIDs:
		ids = append(ids, uuidN("9e1c2d3e", 1), uuidN("9e1c2d3e", 2))
	case UploadNotUUID:
		if len(ids) > 0 {
			ids[0] = "file-1"
		}
	}
	b, _ := json.Marshal(map[string]any{"project_id": ProjectID, "file_ids": append([]string{}, ids...)})
	if s.fault == ErrorsInside {
		b = append([]byte(`{"errors":["some files were not stored"],`), b[1:]...)
	}
	writeJSON(w, 201, string(b))
}

func readParts(r *http.Request) (names []string, sizes []int64, mode string, err error) {
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return nil, nil, "", err
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return names, sizes, mode, nil
		}
		if err != nil {
			return nil, nil, "", err
		}
		switch part.FormName() {
		case "files":
			n, err := io.Copy(io.Discard, part)
			if err != nil {
				return nil, nil, "", err
			}
			names, sizes = append(names, path.Base(part.FileName())), append(sizes, n)
		case "duplicate_mode":
			b, _ := io.ReadAll(io.LimitReader(part, 100))
			mode = string(b)
		default:
			io.Copy(io.Discard, part)
		}
	}
}
