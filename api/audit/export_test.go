package audit

// SmallPages is o asking for pages of n entries (the listing's own most
// is 1000), so a test walks many batches through few entries.
func SmallPages(o FollowOptions, n int) FollowOptions {
	o.take = n
	return o
}
