package redact

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/rangetable"
)

// ignorables is Unicode's Default_Ignorable_Code_Point: characters a
// terminal draws as nothing (zero-width space and joiners, word joiner,
// BOM, soft hyphen, variation selectors, tags…), so a token with them
// inside looks whole on screen while no form of it matches. It is derived
// from the unicode package's tables as DerivedCoreProperties.txt derives
// it: Other_Default_Ignorable_Code_Point + Cf + Variation_Selector, less
// White_Space, U+FFF9..U+FFFB, U+13430..U+1343F and
// Prepended_Concatenation_Mark (which are drawn). Built once from the tables
// rather than listed by hand, so a new Unicode version brings its own; built
// on first use, not at start-up, where it cost every command (and the
// console's first frame) about a millisecond.
var ignorables = sync.OnceValue(func() *unicode.RangeTable {
	var runes []rune
	rangetable.Visit(rangetable.Merge(unicode.Other_Default_Ignorable_Code_Point, unicode.Cf, unicode.Variation_Selector),
		func(r rune) {
			switch {
			case unicode.Is(unicode.White_Space, r), unicode.Is(unicode.Prepended_Concatenation_Mark, r),
				r >= 0xFFF9 && r <= 0xFFFB, r >= 0x13430 && r <= 0x1343F:
				return
			}
			runes = append(runes, r)
		})
	return rangetable.New(runes...)
})

func isIgnorable(r rune) bool { return r >= 0xAD && unicode.Is(ignorables(), r) }

// ignorablePattern matches one default-ignorable character as itself or
// as a JSON \u escape (a surrogate pair beyond the BMP). The Redactor
// allows any run of them between two characters of the token. Built by the
// first Redactor, not at start-up.
var ignorablePattern = sync.OnceValue(func() string {
	var raw, esc, pct []string
	each := func(lo, hi rune) {
		utf8Ranges(lo, hi, func(los, his []byte) {
			var b strings.Builder
			for j := range los {
				if j > 0 {
					b.WriteString("%")
				}
				b.WriteString(hexRange(int(los[j]), int(his[j]), 2))
			}
			pct = append(pct, b.String())
		})
		if lo == hi {
			raw = append(raw, fmt.Sprintf(`\x{%x}`, lo))
		} else {
			raw = append(raw, fmt.Sprintf(`\x{%x}-\x{%x}`, lo, hi))
		}
		if hi <= 0xFFFF {
			esc = append(esc, hexRange(int(lo), int(hi), 4))
			return
		}
		// as surrogate pairs: a partial high surrogate at each end, and the
		// whole ones between in one pattern
		pair := func(hLo, hHi, lLo, lHi rune) {
			esc = append(esc, hexRange(int(0xD800+hLo), int(0xD800+hHi), 4)+`\\u`+hexRange(int(0xDC00+lLo), int(0xDC00+lHi), 4))
		}
		hLo, hHi := (lo-0x10000)>>10, (hi-0x10000)>>10
		lLo, lHi := (lo-0x10000)&0x3FF, (hi-0x10000)&0x3FF
		if hLo == hHi {
			pair(hLo, hHi, lLo, lHi)
			return
		}
		if lLo != 0 {
			pair(hLo, hLo, lLo, 0x3FF)
			hLo++
		}
		if lHi != 0x3FF {
			pair(hHi, hHi, 0, lHi)
			hHi--
		}
		if hLo <= hHi {
			pair(hLo, hHi, 0, 0x3FF)
		}
	}
	// the table's ranges, adjacent ones merged (rangetable.New leaves
	// 180B and 180C..180F apart), so the pattern repeated between every two
	// characters of the token stays short
	var spans [][2]rune
	rangetable.Visit(ignorables(), func(r rune) {
		if n := len(spans); n > 0 && spans[n-1][1] == r-1 {
			spans[n-1][1] = r
			return
		}
		spans = append(spans, [2]rune{r, r})
	})
	for _, sp := range spans {
		each(sp[0], sp[1])
	}
	return `(?:[` + strings.Join(raw, "") + `]|\\u(?:` + strings.Join(esc, "|") + `)|%(?:` + strings.Join(pct, "|") + `))`
})

// utf8Ranges splits lo..hi into ranges whose UTF-8 encodings are ranges
// byte by byte (as regexp/syntax does for a character class), for the
// %XX form of each: f gets the first and last encoding of each.
func utf8Ranges(lo, hi rune, f func(los, his []byte)) {
	for _, edge := range []rune{0x7F, 0x7FF, 0xFFFF} {
		if lo <= edge && hi > edge {
			utf8Ranges(lo, edge, f)
			utf8Ranges(edge+1, hi, f)
			return
		}
	}
	for i := 1; i < utf8.RuneLen(lo); i++ {
		m := rune(1)<<(6*i) - 1
		if lo&^m != hi&^m {
			if lo&m != 0 {
				utf8Ranges(lo, lo|m, f)
				utf8Ranges((lo|m)+1, hi, f)
				return
			}
			if hi&m != m {
				utf8Ranges(lo, (hi&^m)-1, f)
				utf8Ranges(hi&^m, hi, f)
				return
			}
		}
	}
	f(utf8.AppendRune(nil, lo), utf8.AppendRune(nil, hi))
}

// hexRange is a pattern of the width-digit hexadecimal numbers lo..hi
// (lower case; the Redactor's pattern is case-insensitive).
func hexRange(lo, hi, width int) string {
	if width == 1 {
		if lo == hi {
			return fmt.Sprintf("%x", lo)
		}
		if lo == 0 && hi == 15 {
			return "[0-9a-f]"
		}
		var class strings.Builder
		for d := lo; d <= hi; d++ {
			fmt.Fprintf(&class, "%x", d)
		}
		return "[" + class.String() + "]"
	}
	unit := 1 << (4 * (width - 1))
	dlo, dhi := lo/unit, hi/unit
	if dlo == dhi {
		return fmt.Sprintf("%x", dlo) + hexRange(lo%unit, hi%unit, width-1)
	}
	var alts []string
	if lo%unit != 0 {
		alts = append(alts, fmt.Sprintf("%x", dlo)+hexRange(lo%unit, unit-1, width-1))
		dlo++
	}
	tail := ""
	if hi%unit != unit-1 {
		tail = fmt.Sprintf("%x", dhi) + hexRange(0, hi%unit, width-1)
		dhi--
	}
	if dlo <= dhi {
		alts = append(alts, hexRange(dlo, dhi, 1)+strings.Repeat("[0-9a-f]", width-1))
	}
	if tail != "" {
		alts = append(alts, tail)
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}

// escapedRune decodes a JSON \uXXXX escape (a surrogate pair as one rune)
// at the start of b; n is 0 when there is none.
func escapedRune(b []byte) (rune, int) {
	hex4 := func(b []byte) (rune, bool) {
		if len(b) < 6 || b[0] != '\\' || b[1]|0x20 != 'u' {
			return 0, false
		}
		var r rune
		for _, c := range b[2:6] {
			switch {
			case c >= '0' && c <= '9':
				r = r<<4 | rune(c-'0')
			case c|0x20 >= 'a' && c|0x20 <= 'f':
				r = r<<4 | rune(c|0x20-'a'+10)
			default:
				return 0, false
			}
		}
		return r, true
	}
	r, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if r >= 0xD800 && r < 0xDC00 {
		if lo, ok := hex4(b[6:]); ok && lo >= 0xDC00 && lo < 0xE000 {
			return 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00), 12
		}
	}
	return r, 6
}

// ignorableAt is the length of the default-ignorable character (raw or
// \u-escaped) at the start of b, 0 when there is none; partial when b
// ends inside what could still become one.
func ignorableAt(b []byte) (n int, partial bool) {
	switch c := b[0]; {
	case c >= utf8.RuneSelf:
		if !utf8.FullRune(b) {
			return 0, true
		}
		if r, size := utf8.DecodeRune(b); isIgnorable(r) {
			return size, false
		}
	case c == '\\':
		if r, size := escapedRune(b); size > 0 {
			if isIgnorable(r) {
				return size, false
			}
			if size == 6 && r >= 0xD800 && r < 0xDC00 && len(b) < 12 {
				return 0, true // a high surrogate whose pair has not arrived
			}
			return 0, false
		}
		return 0, len(b) < 6 && escapePrefix(b)
	case c == '%':
		r, size, need := percentRuneNeed(b)
		if need > 0 {
			return 0, true
		}
		if size > 0 && isIgnorable(r) {
			return size, false
		}
	}
	return 0, false
}

// percentRuneNeed decodes a URL-encoded UTF-8 character (%E2%80%8B) at
// the start of b; n is 0 when there is none, need > 0 when b ends inside
// one.
func percentRuneNeed(b []byte) (r rune, n, need int) {
	var enc [utf8.UTFMax]byte
	size := 0
	for k := 0; k < utf8.UTFMax; k++ {
		at := 3 * k
		if at >= len(b) {
			break
		}
		if b[at] != '%' {
			break
		}
		if at+3 > len(b) {
			return 0, 0, 1 // "%E" at the end
		}
		hi, ok1 := unhex(b[at+1])
		lo, ok2 := unhex(b[at+2])
		if !ok1 || !ok2 {
			break
		}
		enc[k] = hi<<4 | lo
		size = k + 1
		if k == 0 && enc[0] < utf8.RuneSelf {
			return 0, 0, 0 // an ASCII character escaped: not one of these
		}
		if utf8.FullRune(enc[:size]) {
			r, l := utf8.DecodeRune(enc[:size])
			return r, 3 * l, 0
		}
	}
	if size > 0 && 3*size == len(b) {
		return 0, 0, 1 // the rest of the character has not arrived
	}
	return 0, 0, 0
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return c | 0x20 - 'a' + 10, true
	}
	return 0, false
}

// escapePrefix reports whether b (shorter than an escape) could begin one.
func escapePrefix(b []byte) bool {
	for i, c := range b {
		switch {
		case i == 0 && c == '\\', i == 1 && c|0x20 == 'u':
		case i >= 2 && (c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'):
		default:
			return false
		}
	}
	return true
}
