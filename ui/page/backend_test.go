package page_test

import (
	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page"
)

var _ page.Backend = (*api.Client)(nil)
