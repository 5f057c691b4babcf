package matters

// Reading a matter file: a spreadsheet export of client/matter pairs,
// checked the way the service will (spec rules 3, 8 and 10) before anything
// is planned or sent.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/vaultdeck/vaultdeck/api/localfile"
	"github.com/vaultdeck/vaultdeck/api/plural"
)

// Format is the field separator of the file.
type Format string

// Formats. Auto sniffs the first line: tabs outnumbering commas and
// semicolons mean TSV. A CSV's separator is a comma, or a semicolon when
// the first line has more of those (Excel's export in locales whose decimal
// mark is a comma).
const (
	Auto Format = ""
	CSV  Format = "csv"
	TSV  Format = "tsv"
)

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Auto, nil
	case "csv":
		return CSV, nil
	case "tsv", "tab":
		return TSV, nil
	}
	return Auto, fmt.Errorf("unknown format %q: use csv or tsv", s)
}

// Pair is one row of the file: the raw, untrimmed identifiers (the service
// trims them itself, and echoes raw values in errors) and the line where the
// row starts (a quoted field may span lines).
type Pair struct {
	Line     int
	ClientID string
	MatterID string
}

// File is what Read found.
type File struct {
	Pairs     []Pair
	Format    Format
	Separator rune // ',' or ';' for CSV, '\t' for TSV
	Encoding  Encoding
	// Header is set when the first row named the columns.
	Header               bool
	ClientCol, MatterCol int // zero-based
	// Ignored lists the other columns once: their header names, or
	// "column N" for a file without a header.
	Ignored []string
	SHA256  string // of the bytes as read, BOM included
	Bytes   int64
}

// LineError is a malformed line: nothing is sent when one exists.
type LineError struct {
	Line   int
	Reason string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// countingHash hashes and counts what passes through it.
type countingHash struct {
	h hash.Hash
	n int64
}

func (c *countingHash) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}

// Open opens the matter file a person named, "-" (or /dev/stdin) for stdin
// when stdin is not nil: a regular file only (a pipe, a device or a folder
// is refused by name, and nothing blocks), and either is read through the
// matter file's bound.
func Open(name string, stdin io.Reader) (io.ReadCloser, error) {
	if stdin == nil {
		f, err := localfile.Open(name, localfile.MatterFile)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	return localfile.Input(name, stdin, localfile.MatterFile)
}

// Read parses r in one pass. Memory grows with the number of pairs: rows
// are parsed one at a time and only the two identifiers are kept.
func Read(r io.Reader, format Format) (*File, error) {
	sum := &countingHash{h: sha256.New()}
	raw := bufio.NewReaderSize(io.TeeReader(r, sum), 64<<10)
	enc, skip, err := detect(raw)
	if err != nil {
		return nil, err
	}
	if _, err := raw.Discard(skip); err != nil {
		return nil, err
	}
	var text io.Reader = raw
	if enc == UTF16LE || enc == UTF16BE {
		text = &utf16Reader{src: raw, big: enc == UTF16BE}
	}
	br := bufio.NewReaderSize(text, 64<<10)
	if crOnly(br) {
		br = bufio.NewReaderSize(crToLF{br}, 64<<10)
	}
	sniffed, sep := sniff(br)
	switch format {
	case Auto:
		format = sniffed
	case TSV:
		sep = '\t'
	case CSV:
		if sep == '\t' {
			sep = ','
		}
	}
	f := &File{Format: format, Separator: sep, Encoding: enc, Pairs: make([]Pair, 0, estimate(r, raw))}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	cr.Comma = sep
	first := true
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, parseError(err)
		}
		line, _ := cr.FieldPos(0)
		if blank(rec) {
			continue
		}
		if first {
			first = false
			isHeader, err := f.columns(rec, line)
			if err != nil {
				return nil, err
			}
			if isHeader {
				continue
			}
		}
		p, err := f.pair(rec, line)
		if err != nil {
			return nil, err
		}
		f.Pairs = append(f.Pairs, p)
	}
	// Drain what csv left unread (nothing, normally) so the hash covers the
	// whole input.
	if _, err := io.Copy(io.Discard, raw); err != nil {
		return nil, err
	}
	if len(f.Pairs) == 0 {
		return nil, errors.New("the file holds no client_id/matter_id pairs")
	}
	f.SHA256, f.Bytes = hex.EncodeToString(sum.h.Sum(nil)), sum.n
	return f, nil
}

// estimate guesses the number of rows of a regular file from its size and
// the line length of its first 64 KB, so the pairs are not copied again
// and again as they grow (a tenth of the time for a million pairs). A
// stream (stdin) gets no guess.
func estimate(r io.Reader, raw *bufio.Reader) int {
	st, ok := r.(interface{ Stat() (fs.FileInfo, error) })
	if !ok {
		return 0
	}
	fi, err := st.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	head, _ := raw.Peek(raw.Size())
	lines := bytes.Count(head, []byte{'\n'}) + bytes.Count(head, []byte{'\r'}) - bytes.Count(head, []byte("\r\n"))
	if lines == 0 || len(head) == 0 {
		return 0
	}
	n := fi.Size() / int64(len(head)) * int64(lines) * 11 / 10
	return int(min(n, 50_000_000)) // a bound against a file that lies about its shape
}

// crOnly reports whether lines end in a lone CR (Excel for Mac's "CSV
// (Macintosh)"): the first 4 KB has a CR and no LF.
func crOnly(br *bufio.Reader) bool {
	head, _ := br.Peek(4096)
	return bytes.IndexByte(head, '\r') >= 0 && bytes.IndexByte(head, '\n') < 0
}

// crToLF turns every CR into LF as the file streams through.
type crToLF struct{ r io.Reader }

func (c crToLF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}

// sniff decides the format and separator from the first line (outside
// quotes).
func sniff(br *bufio.Reader) (Format, rune) {
	head, _ := br.Peek(4096)
	commas, semis, tabs, quoted := 0, 0, 0, false
	for _, b := range head {
		switch {
		case b == '"':
			quoted = !quoted
		case quoted:
		case b == '\n':
			return pick(commas, semis, tabs)
		case b == ',':
			commas++
		case b == ';':
			semis++
		case b == '\t':
			tabs++
		}
	}
	return pick(commas, semis, tabs)
}

func pick(commas, semis, tabs int) (Format, rune) {
	switch {
	case tabs > commas && tabs > semis:
		return TSV, '\t'
	case semis > commas:
		return CSV, ';'
	}
	return CSV, ','
}

// blank is a row with nothing but whitespace: spreadsheets export empty
// rows as ",,," and those are skipped like empty lines.
func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

func normName(s string) string {
	s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(s, "\uFEFF")))
	return strings.NewReplacer(" ", "", "_", "", "-", "").Replace(s)
}

// columns decides from the first row whether it is a header. A row naming
// either identifier column is a header and must name both.
func (f *File) columns(rec []string, line int) (bool, error) {
	ci, mi := -1, -1
	for i, name := range rec {
		switch normName(name) {
		case "clientid":
			if ci >= 0 {
				return false, &LineError{line, "the header names client_id twice"}
			}
			ci = i
		case "matterid":
			if mi >= 0 {
				return false, &LineError{line, "the header names matter_id twice"}
			}
			mi = i
		}
	}
	switch {
	case ci < 0 && mi < 0:
		f.ClientCol, f.MatterCol = 0, 1
		for i := 2; i < len(rec); i++ {
			f.Ignored = append(f.Ignored, fmt.Sprintf("column %d", i+1))
		}
		return false, nil
	case ci < 0:
		return false, &LineError{line, "the header names matter_id but no client_id column"}
	case mi < 0:
		return false, &LineError{line, "the header names client_id but no matter_id column"}
	}
	f.Header, f.ClientCol, f.MatterCol = true, ci, mi
	for i, name := range rec {
		if i != ci && i != mi {
			if name = strings.TrimSpace(name); name == "" {
				name = fmt.Sprintf("column %d", i+1)
			}
			f.Ignored = append(f.Ignored, name)
		}
	}
	return true, nil
}

func (f *File) pair(rec []string, line int) (Pair, error) {
	need := max(f.ClientCol, f.MatterCol) + 1
	if len(rec) < need {
		what := "the first two columns"
		if f.Header {
			what = fmt.Sprintf("client_id (column %d) and matter_id (column %d)", f.ClientCol+1, f.MatterCol+1)
		}
		return Pair{}, &LineError{line, fmt.Sprintf("%s, but %s are needed: is the separator right (--format csv|tsv)?", plural.Count(len(rec), "column"), what)}
	}
	c, m := rec[f.ClientCol], rec[f.MatterCol]
	if !utf8.ValidString(c) || !utf8.ValidString(m) || strings.ContainsRune(c+m, utf8.RuneError) {
		return Pair{}, &LineError{line, "not valid UTF-8 (a Windows-1252 or Latin-1 export?): save the sheet as CSV UTF-8"}
	}
	// csv slices every field of a row out of one string; with extra
	// columns, copy the two we keep (in one allocation) so the rest of the
	// row can be freed.
	if len(rec) > 2 {
		both := c + m
		c, m = both[:len(c)], both[len(c):]
	}
	return Pair{Line: line, ClientID: c, MatterID: m}, nil
}

// parseError turns encoding/csv's error into a line and a reason a person
// can act on.
func parseError(err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	reason := pe.Err.Error()
	switch {
	case errors.Is(pe.Err, csv.ErrQuote):
		reason = `a quoted field is not closed, or text follows its closing quote (an unmatched ")`
	case errors.Is(pe.Err, csv.ErrBareQuote):
		reason = `a quote (") inside a field that does not start with one: quote the whole field and double the inner quotes`
	}
	line := pe.StartLine
	if line == 0 {
		line = pe.Line
	}
	return &LineError{Line: line, Reason: reason}
}

// Describe names the format as a person reads it: "CSV", "CSV (;)", "TSV".
func (f *File) Describe() string {
	if f.Format == CSV && f.Separator == ';' {
		return "CSV (;)"
	}
	return strings.ToUpper(string(f.Format))
}
