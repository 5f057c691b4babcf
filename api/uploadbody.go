package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"path"
	"strings"
	"sync"

	"github.com/vaultdeck/vaultdeck/api/plural"
	"github.com/vaultdeck/vaultdeck/api/redact"
)

// segment is one piece of a multipart body: either framing bytes built in
// memory (a few hundred bytes a file) or a file's content, read from disk
// only while the transport asks for it.
type segment struct {
	frame []byte
	file  *UploadFile
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "", "\n", "")

// multipartFrame lays out the form (duplicate_mode first, then one
// file_paths value and one files part per file, in the same order) and
// returns its pieces with the exact total length: the framing is known in
// advance and each file contributes its declared size.
func multipartFrame(files []UploadFile, mode DuplicateMode) ([]segment, string, int64, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if err := mw.WriteField("duplicate_mode", string(mode)); err != nil {
		return nil, "", 0, err
	}
	for _, f := range files {
		p := f.Path
		if p == "" {
			p = f.Name
		}
		if err := mw.WriteField("file_paths", p); err != nil {
			return nil, "", 0, err
		}
	}
	var segs []segment
	var total int64
	for i := range files {
		f := &files[i]
		h := make(textproto.MIMEHeader)
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files"; filename="%s"`, quoteEscaper.Replace(f.Name)))
		ct := mime.TypeByExtension(strings.ToLower(path.Ext(f.Name)))
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		if _, err := mw.CreatePart(h); err != nil {
			return nil, "", 0, err
		}
		segs = append(segs, segment{frame: bytes.Clone(buf.Bytes())}, segment{file: f})
		total += int64(buf.Len()) + f.Size
		buf.Reset()
	}
	if err := mw.Close(); err != nil {
		return nil, "", 0, err
	}
	segs = append(segs, segment{frame: bytes.Clone(buf.Bytes())})
	total += int64(buf.Len())
	return segs, mw.FormDataContentType(), total, nil
}

// uploadBody reads the segments in order, opening each file when its turn
// comes and closing it at its end. A file that is shorter or longer than
// declared fails the body (the Content-Length would lie otherwise); that
// error is kept so it wins over the transport's vaguer one.
type uploadBody struct {
	ep   endpoint
	segs []segment
	sent func(int64)

	mu     sync.Mutex
	cur    int
	off    int64 // within the current segment
	rc     io.ReadCloser
	total  int64
	err    error // first body failure, reported by finish
	closed bool
}

func (b *uploadBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if b.err != nil {
			return 0, b.err
		}
		if b.closed {
			return 0, errors.New("upload body closed")
		}
		if b.cur >= len(b.segs) {
			return 0, io.EOF
		}
		s := b.segs[b.cur]
		if s.file == nil {
			if b.off < int64(len(s.frame)) {
				n := copy(p, s.frame[b.off:])
				b.off += int64(n)
				return n, nil
			}
			b.next()
			continue
		}
		if b.rc == nil {
			rc, err := s.file.Open()
			if err != nil {
				return 0, b.fail(fmt.Errorf("cannot open %q: %v; the request was abandoned", redact.Clean(s.file.Name), err))
			}
			b.rc = rc
		}
		if b.off == s.file.Size {
			// The declared size is what the Content-Length promised: a file
			// that grew since it was measured must not be cut silently.
			var one [1]byte
			if n, _ := io.ReadFull(b.rc, one[:]); n > 0 {
				return 0, b.fail(fmt.Errorf("%q grew while it was being sent (declared %s); the request was abandoned", redact.Clean(s.file.Name), plural.Count(s.file.Size, "byte")))
			}
			b.rc.Close()
			b.rc = nil
			b.next()
			continue
		}
		if rest := s.file.Size - b.off; int64(len(p)) > rest {
			p = p[:rest]
		}
		n, err := b.rc.Read(p)
		b.off += int64(n)
		if n > 0 {
			b.total += int64(n)
			if b.sent != nil {
				b.sent(b.total)
			}
			return n, nil
		}
		if err == io.EOF {
			return 0, b.fail(fmt.Errorf("%q shrank while it was being sent (%d of %s); the request was abandoned", redact.Clean(s.file.Name), b.off, plural.Count(s.file.Size, "byte")))
		}
		if err != nil {
			return 0, b.fail(fmt.Errorf("reading %q: %v; the request was abandoned", redact.Clean(s.file.Name), err))
		}
	}
}

func (b *uploadBody) next() { b.cur, b.off = b.cur+1, 0 }

func (b *uploadBody) fail(err error) error {
	b.err = &Error{Kind: KindInvalidRequest, Endpoint: b.ep.String(), Message: err.Error()}
	return b.err
}

// Close releases the open file; the transport calls it when it is done with
// the body, whether or not it read all of it.
func (b *uploadBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	if b.rc != nil {
		b.rc.Close()
		b.rc = nil
	}
	return nil
}

// finish reports a body failure once the transport has finished.
func (b *uploadBody) finish() error {
	b.Close()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}
