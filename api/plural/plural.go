// Package plural says counts the way people read them: "1 file", "2 files",
// "1,234 entries". It is the one helper for it, in api so that the jobs'
// messages and the interface's (which imports api, never the reverse) agree,
// instead of "%d file(s)" or a "%d files" that reads "1 files".
package plural

import (
	"github.com/dustin/go-humanize"
	"github.com/dustin/go-humanize/english"
)

// Count is n with the noun in the number n asks for: "1 row", "2 rows",
// "1,234 entries", "3 batches". plural is given for the irregular nouns
// (person: people) and for phrases whose last word is not the noun
// ("request a minute": "requests a minute"); the regular ones need none.
func Count[N Integer](n N, singular string, plural ...string) string {
	return humanize.Comma(int64(n)) + " " + Noun(n, singular, plural...)
}

// Noun is the word alone, in the number n asks for (a count said apart
// from its noun, "2 of 3 files").
func Noun[N Integer](n N, singular string, plural ...string) string {
	if n != 1 {
		n = 2 // english.PluralWord asks only "is it one"; an int64 need not fit an int
	}
	return english.PluralWord(int(n), singular, first(plural))
}

// Verb is the verb that agrees with n things: Verb(1, "is", "are") is
// "is", Verb(2, "is", "are") is "are" ("1 file shares", "2 files share").
func Verb[N Integer](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Integer is any count: the service's are int64, the interface's int.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
