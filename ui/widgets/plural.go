package widgets

import "github.com/dustin/go-humanize/english"

// Count is n with the noun in the number n asks for: "1 row", "2 rows",
// "1,234 entries", "3 batches". It is the one way the interface counts
// things for people to read, instead of "%d row(s)" or a "%d rows" that
// reads "1 rows". plural is given for the irregular nouns (person:
// people); the regular ones (humanize's english rules) need none.
func Count(n int, singular string, plural ...string) string {
	return english.Plural(n, singular, first(plural))
}

// Noun is the word alone, in the number n asks for (a count said apart
// from its noun, "2 of 3 files").
func Noun(n int, singular string, plural ...string) string {
	return english.PluralWord(n, singular, first(plural))
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
