package redact

import "io"

// redactingBody removes the request's token, in every form the Redactor
// knows, from a response body as it is read: every caller of the package
// (the headless commands, the console's rows, the response cache and what
// `serve` stores) then gets bytes without it, instead of each redacting on
// its own and one forgetting (the console drew the token and the cache
// kept it). The replacement, [REDACTED], sits inside the JSON string the
// token was in, so the body stays the JSON it was.
//
// A form of the token may be split across reads, so the tail that could
// still grow into one is held back until the next read (or the end).
type redactingBody struct {
	rc   io.ReadCloser
	red  Redactor
	pend []byte // read, not yet redacted and handed out
	buf  []byte // the redacted output's storage
	out  []byte // redacted, not yet handed out (a part of buf)
	// slashes counts the backslashes that end what was handed out: a match
	// right after an odd number of them starts inside an escape sequence
	// (`\n` then the token's letters), so it is not the token's.
	slashes int
	err     error
}

// minBodyToken is the shortest token removed from data. A shorter one is no
// service token (they are long random strings, and so short a secret would
// be guessed anyway), and removing every "t" of a one-letter test token
// would turn the keys of every body into [REDACTED] and nothing would decode.
// Errors and output are redacted of any token, however short.
const minBodyToken = 8

// Body is rc with red's token removed from what it reads (redactingBody);
// rc itself for a token too short to be a service's.
func Body(rc io.ReadCloser, red Redactor) io.ReadCloser {
	if len(red.secret) < minBodyToken || red.re == nil {
		return rc
	}
	return &redactingBody{rc: rc, red: red}
}

func (b *redactingBody) Read(p []byte) (int, error) {
	if len(b.out) == 0 && len(b.pend) == 0 && b.err == nil && len(p) >= 512 {
		// The common case: read straight into p, and hand it out as it is
		// when no form of the token can be in it (one memchr).
		n, err := b.rc.Read(p)
		cut := n
		if err != nil {
			b.err = err
		} else {
			cut = b.straddle(p[:n], b.held(p[:n]))
		}
		if cut > 0 && !b.red.mayContain(p[:cut]) {
			b.pend = append(b.pend, p[cut:n]...)
			b.count(p[:cut])
			return cut, nil
		}
		b.pend = append(b.pend, p[:n]...)
		b.move(cut)
	}
	for len(b.out) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		b.fill(len(p))
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	return n, nil
}

// fill reads once and moves what is safe to hand out from pend to out.
func (b *redactingBody) fill(want int) {
	start := len(b.pend)
	b.pend = append(b.pend, make([]byte, max(want, 512))...)
	n, err := b.rc.Read(b.pend[start:])
	b.pend = b.pend[:start+n]
	if err != nil {
		b.err = err
		b.move(len(b.pend))
		return
	}
	b.move(b.straddle(b.pend, b.held(b.pend)))
}

// move redacts pend[:cut] into out (which must be empty).
func (b *redactingBody) move(cut int) {
	b.buf = b.redact(b.buf[:0], b.pend[:cut])
	b.out = b.buf
	b.pend = b.pend[:copy(b.pend, b.pend[cut:])]
}

// held is where the tail of p that could still grow into a form of the
// token begins (heldFrom), checking first the one byte any form starts
// with: the token's first character in either case, '%' or '\\'.
func (b *redactingBody) held(p []byte) int {
	first := lower(b.red.secret[0])
	for i := max(0, len(p)-holdTail(b.red)); i < len(p); i++ {
		if c := p[i]; (lower(c) == first || c == '%' || c == '\\') && b.red.couldStart(p[i:]) {
			return i
		}
	}
	return len(p)
}

// straddle moves cut past a match in p that begins before it and ends after.
func (b *redactingBody) straddle(p []byte, cut int) int {
	if cut == len(p) || !b.red.mayContain(p) {
		return cut
	}
	for _, m := range b.red.re.FindAllIndex(p, -1) {
		if m[0] < cut && m[1] > cut {
			return m[1]
		}
	}
	return cut
}

// redact appends src to dst with every match replaced, except a match that
// an odd run of backslashes before it puts inside an escape sequence.
func (b *redactingBody) redact(dst, src []byte) []byte {
	if !b.red.mayContain(src) {
		b.count(src)
		return append(dst, src...)
	}
	from := len(dst)
	for pos := 0; pos < len(src); {
		m := b.red.re.FindIndex(src[pos:])
		if m == nil {
			dst = append(dst, src[pos:]...)
			break
		}
		at, end := pos+m[0], pos+m[1]
		if b.escaped(dst[from:], src[pos:at]) {
			dst = append(dst, src[pos:at+1]...)
			pos = at + 1
			continue
		}
		dst = append(dst, src[pos:at]...)
		dst = append(dst, Redacted...)
		pos = end
	}
	b.count(dst[from:])
	return dst
}

// escaped reports whether the byte after done+gap follows an odd run of
// backslashes (done is this call's output so far, gap the input before
// the match).
func (b *redactingBody) escaped(done, gap []byte) bool {
	n := 0
	for i := len(gap) - 1; i >= 0 && gap[i] == '\\'; i-- {
		n++
	}
	if n == len(gap) {
		for i := len(done) - 1; i >= 0 && done[i] == '\\'; i-- {
			n++
		}
		if len(done) == countTrailing(done) {
			n += b.slashes
		}
	}
	return n%2 == 1
}

func countTrailing(b []byte) int {
	n := 0
	for i := len(b) - 1; i >= 0 && b[i] == '\\'; i-- {
		n++
	}
	return n
}

// count updates the run of backslashes that ends the output.
func (b *redactingBody) count(out []byte) {
	t := countTrailing(out)
	if t == len(out) {
		b.slashes += t
	} else {
		b.slashes = t
	}
}

func (b *redactingBody) Close() error { return b.rc.Close() }
