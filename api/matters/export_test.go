package matters

import (
	"context"

	"github.com/vaultdeck/vaultdeck/api"
)

// SendRestores lets the external tests send restores without a receipt
// (Restore writes one first), in requests of the service's size.
func SendRestores(ctx context.Context, svc Service, pairs []Pair, h Hooks) *Report {
	return sendRestores(ctx, svc, pairs, api.MaxPairs, h)
}
