package projects

import (
	"context"
	"fmt"
	"time"

	"github.com/vaultdeck/vaultdeck/api"
)

// Deleter is what a deletion needs of the service; *api.Client has it.
type Deleter interface {
	DeleteProject(ctx context.Context, projectID string) (*api.DeleteProjectResult, error)
	RecycleBin(q api.RecycleBinQuery) api.Listing[api.RecycleBinEntry]
}

// BinTries bounds the wait for a deleted project to reach the recycle bin:
// the service says "within seconds"; a minute of 5 s steps is ample, and
// each check spends one vault request.
const BinTries = 12

// Delete asks the service to delete the project with id. An error is a
// request that failed (nothing is known to be deleted); the answer's
// Outcome says whether the service accepted, refused or half did it.
func Delete(ctx context.Context, d Deleter, id string) (*api.DeleteProjectResult, error) {
	r, err := d.DeleteProject(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("the project was not deleted: %w", err)
	}
	return r, nil
}

// WaitInBin checks the recycle bin every `every`, at most BinTries times,
// until the deleted project p is in it (the service moves it there within
// seconds of accepting the deletion). check is told each check before it
// is made. It reports whether the project arrived; an error is a listing
// that failed or ctx ending.
func WaitInBin(ctx context.Context, d Deleter, p api.Project, every time.Duration, check func(try, tries int)) (bool, error) {
	for try := 1; try <= BinTries; try++ {
		if check != nil {
			check(try, BinTries)
		}
		if err := api.Sleep(ctx, every); err != nil {
			return false, err
		}
		entries, _, err := d.RecycleBin(api.RecycleBinQuery{Name: p.Name}).Collect(ctx)
		if err != nil {
			return false, fmt.Errorf("the recycle bin could not be checked: %w", err)
		}
		for _, e := range entries {
			if e.VaultProject.ID == p.ID {
				return true, nil
			}
		}
	}
	return false, nil
}
