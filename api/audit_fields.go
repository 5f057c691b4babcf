package api

import (
	"bytes"
)

// auditFieldDecoder reads, of an audit entry the scanner has checked to be
// valid JSON, the fields a page's readers use (id, timestamp, type, user,
// ip) without a decode of the whole entry: the entry's top-level members
// are walked once, and a string member as the service usually sends it
// (no escape, keys in plain ASCII) is taken from the entry's bytes. The
// five go into one string, one allocation for the entry. Anything
// else (an escaped string or key, a key outside ASCII, which a decoder
// may fold to a field's name, a type given as an object, a time given as
// a number, a field of another kind) is decoded the way every entry was
// before, with the same result and the same error: user_agent is looked
// at for that reason too, though it is not kept (a number there is refused
// as it was).
type auditFieldDecoder struct {
	buf []byte // the fields' text, reused entry to entry
}

// auditField names the members the walk looks for; their order is the
// order of auditFieldDecoder's spans.
var auditFieldNames = [...]string{"id", "timestamp", "type", "user", "ip", "user_agent"}

const (
	fID = iota
	fTimestamp
	fType
	fUser
	fIP
	fUserAgent
	nAuditFields
)

// decode returns raw's ID, Timestamp, Type, User and IP (raw: an object
// or null, valid JSON); an error is the decoder's refusal of the entry.
func (d *auditFieldDecoder) decode(raw []byte) (AuditEntry, error) {
	var spans [nAuditFields][2]int // each member's value, start and end (0, 0: absent)
	var e AuditEntry
	if d.walk(raw, &spans) && d.fast(raw, &spans, &e) {
		return e, nil
	}
	return decodeWhole(raw)
}

// decodeWhole is the decode every entry had before, for the entries the
// walk does not take (its record is allocated only then).
func decodeWhole(raw []byte) (AuditEntry, error) {
	var e AuditEntry
	if err := unmarshalItem(raw, &e); err != nil {
		return AuditEntry{}, err
	}
	e.UserAgent, e.Data = "", nil // not kept on either path: a page's readers keep the entry's bytes
	return e, nil
}

// walk records where each wanted member's value is (the last of a key
// given twice wins, as in a decode). false: a key the walk does not read
// alike with a decoder (escaped, or not ASCII).
func (d *auditFieldDecoder) walk(raw []byte, spans *[nAuditFields][2]int) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return true // null: no members
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == '}' {
		return true
	}
	for i < len(raw) {
		// a key: raw[i] is its opening quote
		k0 := i + 1
		k1 := k0
		for k1 < len(raw) && raw[k1] != '"' {
			if c := raw[k1]; c == '\\' || c >= 0x80 {
				return false
			}
			k1++
		}
		i = skipSpace(raw, k1+1) // the colon
		v0 := skipSpace(raw, i+1)
		v1 := skipJSON(raw, v0)
		key := raw[k0:k1]
		for f, name := range auditFieldNames {
			if len(key) == len(name) && asciiEqualFold(key, name) {
				if spans[f][1] != 0 {
					return false // given twice: which one a decoder keeps, and whether it checks both, is its own
				}
				spans[f] = [2]int{v0, v1}
				break
			}
		}
		i = skipSpace(raw, v1) // ',' or '}'
		if i >= len(raw) || raw[i] == '}' {
			return true
		}
		i = skipSpace(raw, i+1)
	}
	return true
}

// fast takes the members from raw when each is a plain string or null;
// false sends the entry to the decoder.
func (d *auditFieldDecoder) fast(raw []byte, spans *[nAuditFields][2]int, e *AuditEntry) bool {
	var text [nAuditFields][]byte
	d.buf = d.buf[:0]
	for f := range nAuditFields {
		s := spans[f]
		if s[1] == 0 {
			continue
		}
		v := raw[s[0]:s[1]]
		switch {
		case len(v) == 4 && string(v) == "null":
		case len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0:
			if f == fType && !ascii(v) {
				return false // AuditType decodes with encoding/json, which replaces bytes that are not UTF-8
			}
			if f != fUserAgent {
				text[f] = v[1 : len(v)-1]
				d.buf = append(d.buf, text[f]...)
			}
		default:
			return false
		}
	}
	*e = AuditEntry{}
	if len(d.buf) == 0 {
		return true
	}
	all := string(d.buf) // the one allocation: the five fields are parts of it
	at := 0
	part := func(f int) string {
		s := all[at : at+len(text[f])]
		at += len(text[f])
		return s
	}
	e.ID = part(fID)
	if ts := part(fTimestamp); ts != "" {
		if t, err := ParseTime(ts); err == nil {
			e.Timestamp = Time{Time: t, Raw: ts}
		} else {
			e.Timestamp = Time{Raw: ts} // as Time.UnmarshalJSON keeps a form it does not know
		}
	}
	e.Type = AuditType(part(fType))
	e.User = part(fUser)
	e.IP = part(fIP)
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipJSON returns the end of the valid JSON value that starts at b[i].
func skipJSON(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default: // a number or a literal: up to the next delimiter
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// skipString returns the index after the string that opens at b[i].
func skipString(b []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		i += j
		bs := 0 // backslashes right before the quote: an odd count escapes it
		for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
			bs++
		}
		i++
		if bs%2 == 0 {
			return i
		}
	}
}

func asciiEqualFold(b []byte, s string) bool {
	for i := range b {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
