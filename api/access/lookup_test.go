package access

import (
	"slices"
	"testing"
)

func TestCloseMatches(t *testing.T) {
	known := []string{"a.gallagher@harrowgate-law.com", "b.gallagher@harrowgate-law.com", "j.okafor@harrowgate-law.com",
		"A.Gallagher@harrowgate-law.com", "jo@x.io", "a.gallagher@other.example"}
	for _, tc := range []struct {
		email string
		want  []string
	}{
		// one letter off; the other Gallagher is two away, so after
		{"a.galagher@harrowgate-law.com", []string{"a.gallagher@harrowgate-law.com", "b.gallagher@harrowgate-law.com"}},
		{"c.gallagher@harrowgate-law.com", []string{"a.gallagher@harrowgate-law.com", "b.gallagher@harrowgate-law.com"}},
		// a slip in the domain; the same local part elsewhere is offered after
		{"a.gallagher@harowgate-law.com", []string{"a.gallagher@harrowgate-law.com", "b.gallagher@harrowgate-law.com", "a.gallagher@other.example"}},
		// the same address in other case is not a "close match" of itself
		{"A.GALLAGHER@HARROWGATE-LAW.COM", []string{"b.gallagher@harrowgate-law.com", "a.gallagher@other.example"}},
		// sharing a domain is not closeness
		{"nobody@harrowgate-law.com", nil},
		// short addresses allow one edit only
		{"jp@x.io", []string{"jo@x.io"}},
		{"kp@x.io", nil},
	} {
		got := CloseMatches(tc.email, known)
		if !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("CloseMatches(%q) = %q, want %q", tc.email, got, tc.want)
		}
	}
}
