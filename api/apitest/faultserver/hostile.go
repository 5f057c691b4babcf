package faultserver

import (
	"bytes"
	"net/http"
	"strings"
)

// BadName is the name the BadBytes fault sends, as JSON string contents: a
// lone 0x9b (CSI on 8-bit terminals, and no UTF-8), an escaped ESC, an encoded
// C1 CSI (U+009B), bytes 0xff 0xfe, and text that must pass unchanged.
const BadName = "A\x9b31mB \\u001b[2J \xc2\x9b C \xff\xfe é – \\u00e9 end"

// Option changes a fault server.
type Option func(*Server)

// Size sets the length of HugeString's string.
func Size(n int64) Option { return func(s *Server) { s.size = n } }

// Sent is how many body bytes the hostile faults have written: a client
// that stops reading at its limit keeps it far below what was offered.
func (s *Server) Sent() int64 { return s.sent.Load() }

// hugeShapes are, per endpoint, the JSON before and after the one string
// HugeString makes enormous: streamed (the recycle bin), enveloped
// (projects, files), and plain (whoami, the audit log's earliest entry and
// its listing).
var hugeShapes = map[string][2]string{
	"/api/v1/vault/workspace/recycle_bin":            {`{"items":[{"id":"e1","resource_id":"` + ProjectID + `","vault_project":{"name":"`, `"}}],"total":1}`},
	"/api/v1/vault/workspace/projects":               {`{"response":{"content":{"pagination":{"page":1,"total_pages":1},"projects":[{"id":"p1","name":"`, `"}]}}}`},
	"/api/v1/vault/projects/" + ProjectID + "/files": {`{"response":{"content":{"files":[{"id":"f1","name":"`, `"}],"pagination":{"has_more":false}}}}`},
	"/api/whoami":                 {`{"user_id":"u1","name":"`, `"}`},
	"/api/v1/logs/audit/earliest": {`{"log":{"id":"a1","user":"`, `"}}`},
	"/api/v1/logs/audit":          {`[{"id":"a2","user":"`, `"}]`},
}

// hostile serves the hostile faults, writing in 64 KB chunks until done,
// the client goes away or the server closes.
func (s *Server) hostile(w http.ResponseWriter, r *http.Request, path string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	write := s.writer(w, r)
	switch s.fault {
	case HugeString:
		shape, ok := hugeShapes[path]
		if !ok {
			shape = [2]string{`{"x":"`, `"}`}
		}
		if !write([]byte(shape[0])) {
			return
		}
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		for left := s.size; left > 0; left -= int64(len(chunk)) {
			if !write(chunk[:min(int64(len(chunk)), left)]) {
				return
			}
		}
		write([]byte(shape[1]))
	case EndlessSpace:
		chunk := bytes.Repeat([]byte(" \n\t"), 20<<10)
		for write(chunk) {
		}
	case EndlessArray:
		open := `{"items":[`
		switch {
		case strings.HasSuffix(path, "/projects"):
			open = `{"response":{"content":{"pagination":{"page":1,"total_pages":1},"projects":[`
		case path == "/api/v1/logs/audit/earliest" || path == "/api/whoami":
			open = `{"log":{"id":"a1","x":[`
		case path == "/api/v1/logs/audit": // a bare array of entries
			open = `[`
		}
		if !write([]byte(open)) {
			return
		}
		item := RecycleBinBody(1)
		item = item[len(`{"items":[`) : len(item)-len(`],"total":1}`)]
		var b bytes.Buffer
		for i := 0; ; i++ {
			b.Reset()
			for j := range 64 {
				if i > 0 || j > 0 {
					b.WriteByte(',')
				}
				b.Write(item)
			}
			if !write(b.Bytes()) {
				return
			}
		}
	}
}

// writer writes a fault's body a piece at a time, counting what was sent,
// until the client goes away or the server closes (false from then on).
func (s *Server) writer(w http.ResponseWriter, r *http.Request) func([]byte) bool {
	return func(b []byte) bool {
		select {
		case <-r.Context().Done():
			return false
		case <-s.stop:
			return false
		default:
		}
		n, err := w.Write(b)
		s.sent.Add(int64(n))
		return err == nil
	}
}
