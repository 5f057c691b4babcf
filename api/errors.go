package api

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/vaultdeck/vaultdeck/api/plural"
)

// ErrorKind classifies a failure so callers can switch on it. A kind is
// itself an error, so errors.Is(err, api.KindNotFound) works on any error
// this package returns.
type ErrorKind int

// Failure kinds. Each has a distinct remedy, which Error() spells out.
const (
	KindUnknown        ErrorKind = iota
	KindUnauthorized             // 401: token invalid/expired (or, for matters, missing permission)
	KindForbidden                // 403: token lacks a permission
	KindNotFound                 // 404 or an empty audit log
	KindRateLimited              // 429 after retries, or a non-repeatable request hit the limit
	KindServer                   // 5xx
	KindMalformed                // a 2xx body that is not what the endpoint promises
	KindNetwork                  // no HTTP response at all
	KindInvalidRequest           // 400 and other 4xx, or refused before sending
	KindTooLarge                 // a file over the size limit (client-side or 413)
	KindCanceled                 // the caller's context ended
	KindTimeout                  // the service did not answer, or stopped sending, in time
	KindRedirect                 // a redirect to another origin was refused
	KindProtocol                 // an answer that breaks HTTP or TLS itself (errors_protocol.go, wire.go)
)

var kindNames = [...]string{"unknown", "unauthorized", "forbidden", "not found", "rate limited",
	"server error", "malformed response", "network error", "invalid request", "too large", "canceled",
	"timeout", "redirect refused", "protocol error"}

// String names the kind.
func (k ErrorKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error makes a kind usable as an errors.Is target.
func (k ErrorKind) Error() string { return "api: " + k.String() }

// Error is every failure the client returns. Message holds the detail (the
// server's own sentence when it sent one), already stripped of control
// characters and of the token.
type Error struct {
	Kind       ErrorKind
	Status     int    // HTTP status, 0 when no response arrived
	Endpoint   string // "GET /api/v1/vault/get_files"
	Message    string
	Permission string        // the permission the endpoint requires (401/403)
	RetryAfter time.Duration // when to try again (rate limited)
	Batch      *BatchError   // the 400 body of the matter endpoints
	// TokenWorked is set when another request with the same token succeeded,
	// which narrows an ambiguous matter 401 down to a missing permission.
	TokenWorked bool
	// HasPermissions is set on a 403 when whoami lists every permission the
	// endpoint needs: the refusal is about this item (sharing, an ethical
	// wall), not the token.
	HasPermissions bool
	// After is how long the client waited for the service (KindTimeout);
	// Received is how much of the body had arrived when it stalled, -1 when
	// no answer arrived at all.
	After    time.Duration
	Received int64
	Sending  bool  // the request body stopped being taken (Received bytes sent)
	Total    bool  // the response as a whole took longer than After (Timeouts.Total)
	NoItem   bool  // bytes kept coming, but no new listing item for After
	Err      error // underlying cause (network, decode, context), already redacted
}

// Is lets errors.Is match a Kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(ErrorKind)
	return ok && k == e.Kind
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Error reads as a sentence that says what happened and what to do next.
func (e *Error) Error() string {
	var b strings.Builder
	ep := e.Endpoint
	if ep == "" {
		ep = "the request"
	}
	said := ""
	if e.Message != "" {
		said = ": " + e.Message
	}
	switch e.Kind {
	case KindUnauthorized:
		if e.Permission != "" {
			fmt.Fprintf(&b, "%s was refused (401)%s. ", ep, said)
			if e.TokenWorked {
				fmt.Fprintf(&b, "The token works for other endpoints, so it most likely lacks %s; ", e.Permission)
			} else {
				fmt.Fprintf(&b, "Either the token is invalid or expired, or it lacks %s (these endpoints answer 401 for a missing permission); ", e.Permission)
			}
			b.WriteString("check the token's permissions under API Tokens in the workspace settings")
		} else {
			fmt.Fprintf(&b, "the API token was rejected (401) by %s%s. It is invalid, expired or revoked: create a new token under API Tokens in the workspace settings and log in again", ep, said)
		}
	case KindForbidden:
		if e.HasPermissions {
			fmt.Fprintf(&b, "%s was refused (403)%s, although the token has every permission %s requires (%s). The item's sharing or an ethical wall may exclude this account; ask a workspace admin", ep, said, ep, e.Permission)
			break
		}
		fmt.Fprintf(&b, "this token lacks %s, which %s requires (403)%s. Ask a workspace admin to add the permission to the token under API Tokens", orUnknown(e.Permission), ep, said)
	case KindNotFound:
		fmt.Fprintf(&b, "%s: not found (%d)%s. Check the ID; the item may have been deleted", ep, e.Status, said)
	case KindRateLimited:
		fmt.Fprintf(&b, "%s hit the rate limit%s. ", ep, said)
		if e.RetryAfter > 0 {
			fmt.Fprintf(&b, "Try again in %s", roundUp(e.RetryAfter))
		} else {
			b.WriteString("Wait a minute and try again")
		}
	case KindServer:
		fmt.Fprintf(&b, "the service failed on %s (%d)%s. The fault is on the server side: try again later, and report it if it persists", ep, e.Status, said)
	case KindMalformed:
		fmt.Fprintf(&b, "%s returned a response vaultdeck cannot read (HTTP %d)%s. Try again; if it persists, the service may have changed its format", ep, e.Status, said)
	case KindNetwork:
		fmt.Fprintf(&b, "could not reach the service for %s%s. Check the network connection, any proxy, and the base URL or region", ep, said)
	case KindInvalidRequest:
		fmt.Fprintf(&b, "%s rejected the request", ep)
		if e.Status != 0 {
			fmt.Fprintf(&b, " (%d)", e.Status)
		}
		b.WriteString(said)
		if e.Batch != nil {
			b.WriteString(e.Batch.summary())
		}
	case KindTooLarge:
		fmt.Fprintf(&b, "%s%s", ep, said)
	case KindCanceled:
		fmt.Fprintf(&b, "%s was canceled", ep)
	case KindTimeout:
		b.WriteString(e.TimeoutSummary())
		if e.Total {
			b.WriteString(". The service or a proxy in between does not stop sending: try again later, or allow longer with --timeout")
			break
		}
		if e.NoItem {
			b.WriteString(". The service or a proxy in between sends something that is no listing: try again later, or allow longer with --timeout")
			break
		}
		b.WriteString(". The service or a proxy in between is not responding: try again later, or allow longer with --timeout")
	case KindRedirect:
		fmt.Fprintf(&b, "%s%s", ep, said)
	case KindProtocol:
		fmt.Fprintf(&b, "the service, or a proxy in between, broke the protocol on %s%s. vaultdeck used nothing of that answer. "+
			"The network is not at fault: try again, and if it persists, report it to whoever runs the service or the proxy", ep, said)
	default:
		fmt.Fprintf(&b, "%s failed%s", ep, said)
	}
	if e.Err != nil && e.Kind != KindNetwork && e.Kind != KindMalformed && e.Kind != KindProtocol {
		fmt.Fprintf(&b, " (%v)", e.Err)
	}
	return b.String()
}

// TimeoutSummary is the short form of a timeout for a status line or a
// page ("no answer from GET /api/whoami after 30s"), to which the console
// adds its own remedy ("; r to retry"). Empty for other kinds.
func (e *Error) TimeoutSummary() string {
	if e.Kind != KindTimeout {
		return ""
	}
	if e.Sending {
		return fmt.Sprintf("%s stopped taking the request after %s: no progress for %s", e.Endpoint, plural.Count(e.Received, "byte"), e.After)
	}
	if e.Total && e.Received >= 0 {
		return fmt.Sprintf("%s was still sending after %s in all (%s), the limit for one answer (%s --timeout)", e.Endpoint, e.After, plural.Count(e.Received, "byte"), plural.Count(TotalFactor, "time"))
	}
	if e.NoItem {
		return fmt.Sprintf("%s sent %s but no new item for %s", e.Endpoint, plural.Count(e.Received, "byte"), e.After)
	}
	if e.Received >= 0 {
		return fmt.Sprintf("%s stopped sending after %s: no data for %s", e.Endpoint, plural.Count(e.Received, "byte"), e.After)
	}
	return fmt.Sprintf("no answer from %s after %s", e.Endpoint, e.After)
}

func orUnknown(p string) string {
	if p == "" {
		return "a required permission"
	}
	return p
}

func roundUp(d time.Duration) time.Duration {
	if d > math.MaxInt64-time.Second { // the sum would wrap to a negative wait
		return d.Truncate(time.Second)
	}
	return ((d + time.Second - 1) / time.Second) * time.Second
}

// BatchError is the 400 body of the matter endpoints: the whole request was
// rejected and nothing changed.
type BatchError struct {
	Code             string            `json:"error"` // too_many_items, invalid_request, delimiter_required
	Detail           string            `json:"detail"`
	ValidationErrors []ValidationError `json:"validation_errors,omitempty"`
}

func (b *BatchError) summary() string {
	var s strings.Builder
	if b.Code != "" {
		fmt.Fprintf(&s, " [%s]", b.Code)
	}
	if b.Detail != "" {
		fmt.Fprintf(&s, " %s", b.Detail)
	}
	for i, v := range b.ValidationErrors {
		if i == 3 {
			fmt.Fprintf(&s, "; and %d more", len(b.ValidationErrors)-3)
			break
		}
		fmt.Fprintf(&s, "; %s at %s", v.Type, locString(v.Loc))
	}
	s.WriteString(". Nothing was changed; fix the request and send it again")
	return s.String()
}

func locString(loc []any) string {
	parts := make([]string, len(loc))
	for i, p := range loc {
		switch v := p.(type) {
		case float64:
			parts[i] = fmt.Sprintf("[%d]", int(v))
		default:
			parts[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(parts, ".")
}

// ValidationError locates one problem of a rejected request. Loc entries are
// field names (string) or array indexes (float64 after JSON decoding).
type ValidationError struct {
	Loc  []any  `json:"loc"`
	Type string `json:"type"`
	Msg  string `json:"msg,omitempty"`
}
