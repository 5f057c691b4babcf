package matters

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// Encoding names what the file was written in, as a person would say it.
type Encoding string

// Encodings read. Anything else is refused by name before parsing.
const (
	UTF8      Encoding = "UTF-8"
	UTF8BOM   Encoding = "UTF-8 with BOM"
	UTF16LE   Encoding = "UTF-16LE"
	UTF16BE   Encoding = "UTF-16BE"
	noneFound Encoding = ""
)

// detect looks at the first bytes only (Peek, no copy of the file) and
// returns the encoding and how many BOM bytes to drop. UTF-16 without a BOM
// is recognised by its NUL bytes: identifiers are ASCII in practice, so every
// second byte of the first line is zero. A NUL anywhere else means the file
// is not text at all (a spreadsheet's native .xlsx, for instance).
func detect(br *bufio.Reader) (Encoding, int, error) {
	head, _ := br.Peek(512)
	switch {
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}), bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}):
		return noneFound, 0, errors.New("the file is UTF-32, which is not supported: save it as CSV UTF-8")
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return UTF8BOM, 3, nil
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return UTF16LE, 2, nil
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return UTF16BE, 2, nil
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return noneFound, 0, errors.New("the file is a zip archive (an .xlsx workbook?), not CSV or TSV: export the sheet as CSV UTF-8")
	}
	if len(head) >= 4 && bytes.IndexByte(head, 0) >= 0 {
		even, odd := 0, 0
		for i, b := range head[:len(head)&^1] {
			if b == 0 {
				if i%2 == 0 {
					even++
				} else {
					odd++
				}
			}
		}
		half := len(head) / 2
		switch {
		case odd*10 >= half*7 && even*10 <= half:
			return UTF16LE, 0, nil
		case even*10 >= half*7 && odd*10 <= half:
			return UTF16BE, 0, nil
		}
		return noneFound, 0, errors.New("the file contains NUL bytes and is not text: export the sheet as CSV UTF-8")
	}
	return UTF8, 0, nil
}

// utf16Reader converts a UTF-16 stream to UTF-8 as it is read, so a UTF-16
// file costs no more memory than a UTF-8 one. An unpaired surrogate becomes
// U+FFFD, which the line check later reports with its line number.
type utf16Reader struct {
	src     *bufio.Reader
	big     bool
	pending []byte // encoded output not yet returned
	err     error
}

func (u *utf16Reader) unit() (uint16, error) {
	var b [2]byte
	if _, err := io.ReadFull(u.src, b[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			return 0, errors.New("the UTF-16 file ends in the middle of a character")
		}
		return 0, err
	}
	if u.big {
		return uint16(b[0])<<8 | uint16(b[1]), nil
	}
	return uint16(b[1])<<8 | uint16(b[0]), nil
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.pending) < len(p) && u.err == nil {
		c, err := u.unit()
		if err != nil {
			u.err = err
			break
		}
		r := rune(c)
		if utf16.IsSurrogate(r) {
			d, err := u.unit()
			if err != nil {
				u.err = err
				r = utf8.RuneError
			} else {
				r = utf16.DecodeRune(r, rune(d))
			}
		}
		u.pending = utf8.AppendRune(u.pending, r)
	}
	n := copy(p, u.pending)
	u.pending = u.pending[:copy(u.pending, u.pending[n:])]
	if n == 0 && u.err != nil {
		return 0, u.err
	}
	return n, nil
}
