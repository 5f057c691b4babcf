package sanitize

import "testing"

func TestLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "Share Purchase Agreement.docx", "Share Purchase Agreement.docx"},
		{"unicode kept", "Müller & Søn — Übernahme.pdf", "Müller & Søn — Übernahme.pdf"},
		{"osc52 bel", "memo\x1b]52;c;ZWNobyBwd25lZA==\x07.pdf", "memo.pdf"},
		{"osc52 st", "memo\x1b]52;c;ZWNobw==\x1b\\.pdf", "memo.pdf"},
		{"clear screen", "\x1b[2J\x1b[Hfake prompt", "fake prompt"},
		{"cursor up", "a\x1b[3Ab", "ab"},
		{"colour", "\x1b[31mred\x1b[0m", "red"},
		{"c1 csi dropped, rest inert", "a\u009b2Jb", "a2Jb"},
		{"raw c1 byte", "a\x9b2Jb", "a\uFFFD2Jb"},
		{"bell and backspace", "a\x07b\x08c", "abc"},
		{"newline", "line1\nline2\r\n", "line1 line2  "},
		{"bidi override", "invoice\u202Efdp.exe", "invoicefdp.exe"},
		{"del", "a\x7fb", "ab"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in); got != c.want {
				t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestTextKeepsNewlines(t *testing.T) {
	if got := Text("{\n  \"a\": \"\x1b[2Jb\"\n}"); got != "{\n  \"a\": \"b\"\n}" {
		t.Errorf("Text = %q", got)
	}
}

func BenchmarkLinePlain(b *testing.B) {
	for b.Loop() {
		Line("Acme Corp v. Halvorsen — Patent Litigation (privileged).pdf")
	}
}

// BenchmarkLineCJK: a name outside Latin takes the pass that bounds a
// cell's characters (the terminal's edge); a firm in Tokyo has only such
// names.
func BenchmarkLineCJK(b *testing.B) {
	for b.Loop() {
		Line("東京地方裁判所特許訴訟事件記録第二十三号.pdf")
	}
}

func TestOutputKeepsLinesAndTabs(t *testing.T) {
	in := "a\tb\nc\x1b[31mred\x1b]52;c;aGk=\x07\r\u009b2J\u202eend"
	if got, want := Output(in), "a\tb\ncred 2Jend"; got != want {
		t.Fatalf("Output(%q) = %q, want %q", in, got, want)
	}
	if got := Output("plain\tand\nlines"); got != "plain\tand\nlines" {
		t.Fatalf("plain text changed: %q", got)
	}
}
