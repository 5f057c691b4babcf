package api

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/vaultdeck/vaultdeck/api/redact"
)

// A protocol error is an answer that breaks HTTP (or TLS) itself: it
// reached us, so the network is not at fault, and retrying the network's
// remedies (check the connection, the proxy, the region) sends people the
// wrong way. Go's transport gives most of these faults no type of their
// own, only their sentence, so they are told by the sentences it has, each
// worded here as the fault it is. A TLS alert is not among them: the
// peer refused the connection (a client certificate it wants, a version it
// will not speak), which the network error's remedies (the proxy, the base
// URL) do fit.

// protocolFaults maps a phrase of the transport's error to what broke.
var protocolFaults = []struct{ phrase, what string }{
	{"server gave HTTP response to HTTPS client", "it answers plain HTTP on this port, not TLS (is the base URL's scheme right?)"},
	{"server response headers exceeded", "its header is longer than any answer's (the transport stopped at 10 MiB)"},
	{"malformed HTTP response", "it does not begin with an HTTP status line (is the base URL's port serving another protocol?)"},
	{"malformed HTTP status code", "it does not begin with an HTTP status line (is the base URL's port serving another protocol?)"},
	{"malformed HTTP version", "it does not begin with an HTTP status line (is the base URL's port serving another protocol?)"},
	{"bad Content-Length", "its Content-Length is not a length"},
	{"multiple Content-Length", "it has two Content-Lengths that disagree"},
	{"unsupported transfer encoding", "its Transfer-Encoding is not one HTTP/1.1 defines"},
	{"too many transfer encodings", "its Transfer-Encoding is not one HTTP/1.1 defines"},
	{"invalid byte in chunk length", "its chunked body is malformed"},
	{"empty hex number for chunk length", "its chunked body is malformed"},
	{"http chunk length too large", "its chunked body is malformed"},
	{"malformed chunked encoding", "its chunked body is malformed"},
	{"chunked encoding contains too much non-data", "its chunked body is malformed"},
	{"malformed MIME header", "a header or trailer line is malformed"},
	{"too many 1xx informational responses", "it sent informational (1xx) answers without end"},
	{"http2: server sent GOAWAY", "the server ended the HTTP/2 connection with an error (GOAWAY)"},
	{"http2: response header", "its HTTP/2 header is malformed"},
	{"PROTOCOL_ERROR", "its HTTP/2 framing is broken"},
	{"FRAME_SIZE_ERROR", "its HTTP/2 framing is broken"},
	{"COMPRESSION_ERROR", "its HTTP/2 header compression is broken"},
	{"FLOW_CONTROL_ERROR", "its HTTP/2 framing is broken"},
}

// protocolFault says what broke the protocol in err, an error of the
// transport (its round trip or a read of the body), or "" when err is not
// a protocol fault.
func protocolFault(err error) string {
	var (
		mime   textproto.ProtocolError
		record tls.RecordHeaderError
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &record):
		return "it does not speak TLS on this port (is the base URL's scheme right?)"
	case errors.As(err, &mime):
		return "a header or trailer line is malformed"
	}
	msg := err.Error()
	if strings.Contains(msg, "http2: server sent GOAWAY") && strings.Contains(msg, "ErrCode=NO_ERROR") {
		return "" // an orderly shutdown, which the transport retries itself: this one is the network's
	}
	for _, f := range protocolFaults {
		if strings.Contains(msg, f.phrase) {
			return f.what
		}
	}
	return ""
}

// protocolError is the *Error of a protocol fault, or nil when err is none:
// what broke, then the transport's own words (the request's URL left out:
// the endpoint names it).
func protocolError(ep endpoint, status int, red redact.Redactor, err error) *Error {
	what := protocolFault(err)
	if what == "" {
		return nil
	}
	detail := err
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		detail = ue.Err
	}
	return &Error{Kind: KindProtocol, Endpoint: ep.String(), Status: status,
		Message: red.SafeText(what+" ("+detail.Error()+")", 400), Err: redactedCause{red.String(err.Error()), err}}
}

// surplusError is the *Error of an answer followed by bytes it does not
// account for (wire.go).
func surplusError(ep endpoint, resp *http.Response) *Error {
	what := fmt.Sprintf("bytes followed the end of its answer (HTTP %d): a second answer or a body its framing does not hold", resp.StatusCode)
	switch {
	case earlyAnswer(resp):
		what = fmt.Sprintf("its answer (HTTP %d) had arrived before the request was sent: bytes that followed an earlier answer on the connection", resp.StatusCode)
	case resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified:
		what = fmt.Sprintf("its %d answer, which has no body, was followed by one", resp.StatusCode)
	case resp.Request != nil && resp.Request.Method == http.MethodHead:
		what = "its answer to a HEAD request, which has no body, was followed by one"
	}
	return &Error{Kind: KindProtocol, Endpoint: ep.String(), Status: resp.StatusCode, Message: what}
}
