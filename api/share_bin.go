package api

import "context"

// The recycle bin through a Share: every caller of a flight gets the one
// answer, and an answer fetched later that equals the one sessions already
// show comes back as that one, decoded against it so that the equal copy
// is never held (ten sessions opening a 100,000-entry bin minutes apart
// held ten copies of 110 MB, and each decode briefly held two).

// RecycleBin implements page.Backend through the Share: the listing is
// the answer shared with every session on the same token that asked for
// the same bin (Collected), so what Collect returns must be read only (the
// recycle-bin view orders and filters it through indexes of its own).
func (sc *SharedClient) RecycleBin(q RecycleBinQuery) Listing[RecycleBinEntry] {
	return Collected(func(ctx context.Context) ([]RecycleBinEntry, Summary, error) {
		rb, err := sc.recycleBin(ctx, q)
		if err != nil {
			return nil, Summary{}, err
		}
		return rb.Items, Summary{Total: rb.Total, HasTotal: rb.hasTotal}, nil
	})
}

func (sc *SharedClient) recycleBin(ctx context.Context, q RecycleBinQuery) (*RecycleBin, error) {
	key, keyed := sc.keptKey(ctx, "recycle_bin", []any{q})
	return shared(sc, ctx, "recycle_bin", []any{q}, func(ctx context.Context) (*RecycleBin, error) {
		prev := (*RecycleBin)(nil)
		if keyed {
			prev = keptValue[RecycleBin](sc.share, key)
		}
		rb, err := sc.Client.recycleBinLike(ctx, q, prev)
		if err != nil || !keyed {
			return rb, err
		}
		return keep(sc.share, key, rb, SameRecycleBin), nil
	}, func(rb *RecycleBin) *RecycleBin { return rb })
}

// recycleBinLike is the recycle bin collected and decoded against prev
// (nil: none): while the entries coming in equal prev's, none is kept
// (each, and the item buffer its strings point into, is garbage at once);
// at the first that differs, prev's entries so far are copied (their
// strings shared) and the decode goes on keeping each. An answer equal to
// prev is prev itself. The same bound holds (Held counts every entry's
// bytes).
func (c *Client) recycleBinLike(ctx context.Context, q RecycleBinQuery, prev *RecycleBin) (*RecycleBin, error) {
	had := prev != nil
	if !had {
		prev = &RecycleBin{}
	}
	l := c.RecycleBin(q)
	var rb RecycleBin
	var equal bool
	err := c.resending(ctx, epRecycleBin, func() error {
		rb = RecycleBin{Items: []RecycleBinEntry{}}
		same, diverged := 0, false
		held := l.held
		var e RecycleBinEntry
		var in interner  // compact_bin.go
		var kept entries // compact_bin.go: in chunks, copied once to their exact size
		s, err := l.read(ctx, func(it RawItem) error {
			if err := l.decodeInto(it.Bytes, &e); err != nil {
				return err
			}
			if err := held.Add(len(it.Bytes)); err != nil {
				return callerError{err}
			}
			if !diverged {
				if same < len(prev.Items) && SameRecycleBinEntry(&prev.Items[same], &e) {
					same++
					return nil
				}
				diverged = true
			}
			compactRecycleBinEntry(&e, &in)
			kept.add(e)
			return nil
		}, nil)
		rb.Total, rb.hasTotal = s.Total, s.HasTotal
		if err != nil {
			return err
		}
		equal = !diverged && same == len(prev.Items) && rb.Total == prev.Total && rb.hasTotal == prev.hasTotal
		rb.Items = kept.after(prev.Items[:same])
		freeAfterLargeDecode(held.bytes)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if equal && had {
		return prev, nil
	}
	return &rb, nil
}

// SameRecycleBin reports whether two answers are the same, entry for entry
// (in the same order) and field for field.
func SameRecycleBin(a, b *RecycleBin) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Total != b.Total || a.hasTotal != b.hasTotal || len(a.Items) != len(b.Items) {
		return false
	}
	for i := range a.Items {
		if !SameRecycleBinEntry(&a.Items[i], &b.Items[i]) {
			return false
		}
	}
	return true
}

// SameRecycleBinEntry compares every field (TestSameRecycleBinEntrySeesEveryField
// fails when RecycleBinEntry gains one this does not compare).
func SameRecycleBinEntry(a, b *RecycleBinEntry) bool {
	return a.ID == b.ID && a.ResourceID == b.ResourceID && a.ResourceType == b.ResourceType &&
		a.RecycleBinStatus == b.RecycleBinStatus && sameTime(a.DeletedAt, b.DeletedAt) &&
		sameTime(a.RecycleBinPurgedScheduledAt, b.RecycleBinPurgedScheduledAt) &&
		a.DeleteSource == b.DeleteSource && a.DeletedSourceID == b.DeletedSourceID &&
		a.DeletedByUserEmail == b.DeletedByUserEmail &&
		a.VaultProject.ID == b.VaultProject.ID && a.VaultProject.Name == b.VaultProject.Name &&
		sameTime(a.VaultProject.CreatedAt, b.VaultProject.CreatedAt) &&
		a.VaultProject.CreatorEmail == b.VaultProject.CreatorEmail &&
		a.VaultProject.FilesCount == b.VaultProject.FilesCount &&
		a.VaultProject.IsKnowledgeBaseProject == b.VaultProject.IsKnowledgeBaseProject
}

// sameTime: the same text as received and the same instant in the same
// zone (Equal alone would let one zone's rendering stand for another's).
func sameTime(a, b Time) bool {
	if a.Raw != b.Raw || !a.Time.Equal(b.Time) {
		return false
	}
	an, ao := a.Zone()
	bn, bo := b.Zone()
	return an == bn && ao == bo
}
