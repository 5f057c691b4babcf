package faultserver

import (
	"encoding/pem"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// The wire faults (issue 40): answers that break HTTP itself, not the JSON
// inside it, written raw on the connection, which is then closed. Each
// carries the normal answer of the endpoint, so that a client that does not
// notice the fault would take it as good.
const (
	// Surplus: a 200 whose Content-Length ends where the answer ends, with
	// a second response after it on the connection (the token echoed in
	// its header and its body): what a confused proxy or a smuggling
	// attempt sends.
	Surplus Fault = "surplus"
	// SurplusClose is Surplus with Connection: close on the answer.
	SurplusClose Fault = "surplus-close"
	// NoContentBody: a 204 followed by the answer's JSON and the echo: the
	// status says there is no body.
	NoContentBody Fault = "no-content-body"
	// NotModifiedBody: the same after a 304.
	NotModifiedBody Fault = "not-modified-body"
	// ChunkedSurplus: a chunked 200 whose last chunk and trailer are
	// followed by the echo.
	ChunkedSurplus Fault = "chunked-surplus"
	// RedirectSurplus: a 307 to the same path (moved) whose body is
	// followed by the echo; the moved path answers normally.
	RedirectSurplus Fault = "redirect-surplus"
	// LongHeader: a header line longer than any client reads (11 MiB).
	LongHeader Fault = "long-header"
	// BadTrailer: a chunked 200 whose trailer is not a header line.
	BadTrailer Fault = "bad-trailer"
	// BadChunk: a chunked 200 whose first chunk size is not hexadecimal.
	BadChunk Fault = "bad-chunk"
	// NotHTTP: the answer is an SSH banner, not an HTTP status line.
	NotHTTP Fault = "not-http"
	// BadLength: a 200 whose Content-Length is not a number.
	BadLength Fault = "bad-length"
	// UnknownEncoding: a 200 in a transfer coding no client decodes.
	UnknownEncoding Fault = "unknown-encoding"
	// CloseAfter is no fault: the normal answer, exactly its
	// Content-Length, then the connection closed (over TLS, with its
	// close_notify): what a server that closes idle connections at once
	// sends. A client must take it as it is.
	CloseAfter Fault = "close-after"
)

// OverTLS serves over TLS (HTTP/1.1 only) with httptest's certificate,
// which CertPEM gives.
func OverTLS() Option { return func(s *Server) { s.tls = true } }

// CertPEM is the server's certificate as PEM, for a client's CA file.
func (s *Server) CertPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.srv.Certificate().Raw})
}

// WireFaults are the wire faults, each a protocol fault of the answer.
var WireFaults = []Fault{Surplus, SurplusClose, NoContentBody, NotModifiedBody, ChunkedSurplus, RedirectSurplus,
	LongHeader, BadTrailer, BadChunk, NotHTTP, BadLength, UnknownEncoding}

// wire serves a wire fault, if s has one: true when it did.
func (s *Server) wire(w http.ResponseWriter, r *http.Request, path, tok string) bool {
	if !slices.Contains(WireFaults, s.fault) && s.fault != CloseAfter {
		return false
	}
	body := s.body(path, r.URL.Query(), nil)
	if body == "" {
		return false
	}
	// What follows the end of an answer: a response of its own, the token
	// in a header and in the body, as an echoing proxy would send it.
	echo := "HTTP/1.1 200 OK\r\nX-Echo: Bearer " + tok + "\r\nContent-Length: 12\r\n\r\n" + tok
	head := "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
	var raw string
	switch s.fault {
	case Surplus:
		raw = fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s%s", head, len(body), body, echo)
	case SurplusClose:
		raw = fmt.Sprintf("%sConnection: close\r\nContent-Length: %d\r\n\r\n%s%s", head, len(body), body, echo)
	case NoContentBody:
		raw = "HTTP/1.1 204 No Content\r\n\r\n" + body + echo
	case NotModifiedBody:
		raw = "HTTP/1.1 304 Not Modified\r\n\r\n" + body + echo
	case ChunkedSurplus:
		raw = fmt.Sprintf("%sTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\nX-Done: yes\r\n\r\n%s", head, len(body), body, echo)
	case RedirectSurplus:
		if strings.HasSuffix(r.URL.Path, "/_moved") {
			return false
		}
		moved := r.URL.Path + "/_moved"
		if r.URL.RawQuery != "" {
			moved += "?" + r.URL.RawQuery
		}
		page := `{"moved":true}`
		raw = fmt.Sprintf("HTTP/1.1 307 Temporary Redirect\r\nLocation: %s\r\nContent-Length: %d\r\n\r\n%s%s", moved, len(page), page, echo)
	case LongHeader:
		raw = head + "X-Long: " + tok + strings.Repeat("a", 11<<20) + "\r\n\r\n" + body
	case BadTrailer:
		raw = fmt.Sprintf("%sTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\nX-Echo %s\r\n\r\n", head, len(body), body, tok)
	case BadChunk:
		raw = fmt.Sprintf("%sTransfer-Encoding: chunked\r\n\r\nzz%s\r\n%s\r\n0\r\n\r\n", head, tok, body)
	case NotHTTP:
		raw = "SSH-2.0-OpenSSH_9.6 " + tok + "\r\n\r\n"
	case BadLength:
		raw = fmt.Sprintf("%sContent-Length: %s\r\n\r\n%s", head, tok, body)
	case UnknownEncoding:
		raw = fmt.Sprintf("%sTransfer-Encoding: gzip, %s\r\n\r\n%s", head, tok, body)
	case CloseAfter:
		raw = fmt.Sprintf("%sContent-Length: %d\r\n\r\n%s", head, len(body), body)
	default:
		return false
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return true
	}
	defer conn.Close()
	n, _ := conn.Write([]byte(raw)) // one write: the surplus arrives with the answer
	s.sent.Add(int64(n))
	return true
}
