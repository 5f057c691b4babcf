package records

import (
	"strconv"
	"time"

	"github.com/vaultdeck/vaultdeck/api/audit"
)

// BucketHeader is the activity histogram (`audit stats --csv`, the
// console's e on :activity): one bucket a row, oldest first.
func BucketHeader() []string { return []string{"start (UTC)", "end (UTC)", "count"} }

// Bucket is one bucket's record, its bounds RFC 3339 UTC.
func Bucket(b audit.Bucket) []string {
	return []string{b.Start.UTC().Format(time.RFC3339), b.End.UTC().Format(time.RFC3339), strconv.Itoa(b.Count)}
}
