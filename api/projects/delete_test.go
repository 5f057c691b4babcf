package projects

import (
	"context"
	"errors"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
)

// binAfter lists the project in the bin from its n-th listing on.
type binAfter struct {
	n, calls int
	err      error
}

func (b *binAfter) DeleteProject(context.Context, string) (*api.DeleteProjectResult, error) {
	return nil, errors.New("not asked")
}

func (b *binAfter) RecycleBin(api.RecycleBinQuery) api.Listing[api.RecycleBinEntry] {
	return api.Collected(func(context.Context) ([]api.RecycleBinEntry, api.Summary, error) {
		b.calls++
		if b.err != nil {
			return nil, api.Summary{}, b.err
		}
		var items []api.RecycleBinEntry
		if b.n > 0 && b.calls >= b.n {
			var e api.RecycleBinEntry
			e.VaultProject.ID = "p1"
			items = append(items, e)
		}
		return items, api.Summary{}, nil
	})
}

func TestWaitInBin(t *testing.T) {
	p := api.Project{ID: "p1", Name: "Acme"}
	arrives := &binAfter{n: 3}
	var checks []int
	in, err := WaitInBin(context.Background(), arrives, p, 0, func(try, tries int) { checks = append(checks, try) })
	if !in || err != nil || arrives.calls != 3 || len(checks) != 3 {
		t.Fatalf("arriving on the 3rd listing: in %v, err %v, %d listings, checks %v", in, err, arrives.calls, checks)
	}
	never := &binAfter{}
	if in, err := WaitInBin(context.Background(), never, p, 0, nil); in || err != nil || never.calls != BinTries {
		t.Fatalf("never arriving: in %v, err %v after %d listings; want false after %d", in, err, never.calls, BinTries)
	}
	broken := &binAfter{err: errors.New("HTTP 503")}
	if in, err := WaitInBin(context.Background(), broken, p, 0, nil); in || err == nil || broken.calls != 1 {
		t.Fatalf("a failing listing: in %v, err %v after %d listings; want its error at once", in, err, broken.calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gone := &binAfter{n: 1}
	if _, err := WaitInBin(ctx, gone, p, 0, nil); !errors.Is(err, context.Canceled) || gone.calls != 0 {
		t.Fatalf("an ended context: err %v after %d listings; want context.Canceled before any", err, gone.calls)
	}
}
