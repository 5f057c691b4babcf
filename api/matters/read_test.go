package matters

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"
)

func mustRead(t *testing.T, in string, f Format) *File {
	t.Helper()
	got, err := Read(strings.NewReader(in), f)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return got
}

func pairs(f *File) []Pair { return f.Pairs }

func TestReadSpreadsheetExport(t *testing.T) {
	// BOM, CRLF, a header in another order and case, an extra column,
	// quoted fields with a comma, a doubled quote and a newline, blank
	// lines and a blank spreadsheet row.
	in := "\uFEFFNote,Matter_ID,CLIENT_ID\r\n" +
		"\"first, with comma\",M-1,C-1\r\n" +
		"\r\n" +
		",,\r\n" +
		"\"says \"\"hi\"\"\",\"M-2\",\"C 2\"\r\n" +
		"\"two\r\nlines\",M-3,C-3\r\n"
	f := mustRead(t, in, Auto)
	want := []Pair{{2, "C-1", "M-1"}, {5, "C 2", "M-2"}, {6, "C-3", "M-3"}}
	if !reflect.DeepEqual(pairs(f), want) {
		t.Fatalf("pairs = %+v, want %+v", pairs(f), want)
	}
	if !f.Header || f.Encoding != UTF8BOM || f.Format != CSV || !reflect.DeepEqual(f.Ignored, []string{"Note"}) {
		t.Errorf("file = %+v", f)
	}
	if f.Bytes != int64(len(in)) || len(f.SHA256) != 64 {
		t.Errorf("bytes %d sha %q", f.Bytes, f.SHA256)
	}
}

func TestReadHeaderless(t *testing.T) {
	f := mustRead(t, "C-1,M-1,extra\nC-2,M-2,x\n", Auto)
	if f.Header || len(f.Pairs) != 2 || f.Pairs[0] != (Pair{1, "C-1", "M-1"}) {
		t.Fatalf("%+v", f)
	}
	if !reflect.DeepEqual(f.Ignored, []string{"column 3"}) {
		t.Errorf("ignored = %v", f.Ignored)
	}
}

func TestReadTSVSniffedAndForced(t *testing.T) {
	in := "client_id\tmatter_id\nACME, Inc\tM 1\n"
	f := mustRead(t, in, Auto)
	if f.Format != TSV || f.Pairs[0] != (Pair{2, "ACME, Inc", "M 1"}) {
		t.Fatalf("%+v", f)
	}
	// Forced CSV on the same text finds one column: a malformed line.
	_, err := Read(strings.NewReader("a\tb\n"), CSV)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 1 || !strings.Contains(le.Reason, "--format") {
		t.Fatalf("err = %v", err)
	}
}

func utf16le(s string, bom bool) []byte {
	var b bytes.Buffer
	if bom {
		b.Write([]byte{0xFF, 0xFE})
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.Bytes()
}

func TestReadUTF16(t *testing.T) {
	// Excel's "Unicode text" is UTF-16LE with a BOM and tabs.
	in := "client_id\tmatter_id\r\nMüller 😀\tM-1\r\n"
	for _, bom := range []bool{true, false} {
		f, err := Read(bytes.NewReader(utf16le(in, bom)), Auto)
		if err != nil {
			t.Fatalf("bom=%v: %v", bom, err)
		}
		if f.Encoding != UTF16LE || f.Format != TSV || f.Pairs[0] != (Pair{2, "Müller 😀", "M-1"}) {
			t.Fatalf("bom=%v: %+v", bom, f)
		}
	}
	var be bytes.Buffer
	be.Write([]byte{0xFE, 0xFF})
	for _, u := range utf16.Encode([]rune("C,M\n")) {
		be.WriteByte(byte(u >> 8))
		be.WriteByte(byte(u))
	}
	f, err := Read(&be, Auto)
	if err != nil || f.Encoding != UTF16BE || f.Pairs[0] != (Pair{1, "C", "M"}) {
		t.Fatalf("BE: %+v %v", f, err)
	}
}

func TestReadRefusals(t *testing.T) {
	cases := []struct {
		name, in string
		line     int
		reason   string
	}{
		{"unclosed quote", "c,m\nC-1,M-1\n\"C-2,M-2\nC-3,M-3\n", 3, "quoted field is not closed"},
		{"bare quote", "C-1,M\"1\n", 1, "quote"},
		{"one column", "client_id,matter_id\nC-1,M-1\nC-2\n", 3, "1 column"},
		{"latin-1", "C-1,M-1\nM\xfcller,M-2\n", 2, "UTF-8"},
		{"half header", "client_id,matter\nC,M\n", 1, "no matter_id"},
		{"twice", "client_id,matter_id,Client ID\n", 1, "twice"},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.in), Auto)
		var le *LineError
		if !errors.As(err, &le) || le.Line != c.line || !strings.Contains(le.Reason, c.reason) {
			t.Errorf("%s: err = %v, want line %d with %q", c.name, err, c.line, c.reason)
		}
	}
	for name, in := range map[string]string{
		"UTF-32":      "\xFF\xFE\x00\x00c\x00\x00\x00",
		"zip archive": "PK\x03\x04rest",
		"NUL":         "a,b\x00\x00\x00c,d\x00",
		"no pairs":    "client_id,matter_id\r\n\r\n",
	} {
		if _, err := Read(strings.NewReader(in), Auto); err == nil || !strings.Contains(err.Error(), strings.Fields(name)[0]) && name != "no pairs" {
			t.Errorf("%s: err = %v", name, err)
		} else if name == "no pairs" && !strings.Contains(err.Error(), "no client_id") {
			t.Errorf("no pairs: %v", err)
		}
	}
}

// countingReader proves Read streams: it never asks for the whole input
// at once and reads it exactly once.
type countingReader struct {
	r        *strings.Reader
	maxChunk int
	total    int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.maxChunk = max(c.maxChunk, n)
	c.total += n
	return n, err
}

func TestReadStreams(t *testing.T) {
	var b strings.Builder
	b.WriteString("client_id,matter_id,description\n")
	for i := range 20000 {
		b.WriteString("C-1,M-")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(",a long description column that must not be kept in memory\n")
	}
	cr := &countingReader{r: strings.NewReader(b.String())}
	f, err := Read(cr, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if cr.total != b.Len() || cr.maxChunk > 64<<10 {
		t.Errorf("read %d of %d bytes, largest chunk %d", cr.total, b.Len(), cr.maxChunk)
	}
	if len(f.Pairs) != 20000 {
		t.Errorf("pairs = %d", len(f.Pairs))
	}
}

// Excel in locales whose decimal mark is a comma exports "CSV" with
// semicolons; a comma inside a value must then stay part of it.
func TestReadSemicolonCSV(t *testing.T) {
	in := "\uFEFFclient_id;matter_id;note\r\nACME, Inc;M-1;\"a; b\"\r\n"
	for _, f := range []Format{Auto, CSV} {
		got := mustRead(t, in, f)
		if got.Format != CSV || got.Separator != ';' || got.Pairs[0] != (Pair{2, "ACME, Inc", "M-1"}) {
			t.Fatalf("format %q: %+v", f, got)
		}
	}
}

// Excel for Mac's "CSV (Macintosh)" ends lines with a lone CR.
func TestReadClassicMacLineEnds(t *testing.T) {
	f := mustRead(t, "client_id,matter_id\rC-1,M-1\r\"C,2\",M-2\r", Auto)
	want := []Pair{{2, "C-1", "M-1"}, {3, "C,2", "M-2"}}
	if !reflect.DeepEqual(f.Pairs, want) {
		t.Fatalf("pairs = %+v", f.Pairs)
	}
}

// A regular file's size sizes the pairs up front; a wrong guess only
// costs a regrow.
func TestReadPresizesFromAFile(t *testing.T) {
	var b strings.Builder
	for i := range 50000 {
		b.WriteString("C-" + strings.Repeat("x", i%5) + ",M\n")
	}
	p := t.TempDir() + "/m.csv"
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	f, err := Read(fh, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Pairs) != 50000 || cap(f.Pairs) < 50000 || cap(f.Pairs) > 60000 {
		t.Fatalf("len %d cap %d", len(f.Pairs), cap(f.Pairs))
	}
}
