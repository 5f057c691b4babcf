package matterscmd

import (
	"strings"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/matters"
)

// TestLeftAlonePartsAgree: a restore's line about in-flight pairs left
// alone read '1 are present', '1 were already deleted ...' for one pair
// (found in the count sweep: "%d %s" with a plural verb).
func TestLeftAlonePartsAgree(t *testing.T) {
	got := strings.Join(leftAloneParts(map[string]int{matters.CodePresent: 1, matters.CodeDeletedBefore: 2, matters.CodeDeletedLater: 1}), ", ")
	want := "1 is present, 2 were already deleted before this run's request, 1 was deleted later by another deletion on this machine (its restore brings it back)"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
