package api_test

import (
	"context"
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/api/sim"
)

// The upsert answers per-pair failures in an errors array, like deletion;
// they must reach the caller instead of vanishing in decoding.
func TestUpsertMattersReportsPairErrors(t *testing.T) {
	_, c := newSim(t, sim.Options{Seed: 1}, "admin", api.Limits{})
	res, err := c.UpsertMatters(context.Background(), []api.MatterPair{
		{ClientID: "  ", MatterID: "M-1"},
		{ClientID: "C-9", MatterID: "M-1"},
		{ClientID: "C-9 ", MatterID: "M-1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Created) != 1 {
		t.Fatalf("created = %v, want the one valid pair", res.Created)
	}
	want := []string{"invalid_client_id", "duplicate_pair"}
	if len(res.Errors) != len(want) {
		t.Fatalf("errors = %+v, want %v", res.Errors, want)
	}
	for i, code := range want {
		if res.Errors[i].Error != code || res.Errors[i].Detail == "" {
			t.Errorf("errors[%d] = %+v, want code %s with a detail", i, res.Errors[i], code)
		}
	}
	if res.Errors[0].ClientID != "  " {
		t.Errorf("error item should echo the raw client_id, got %q", res.Errors[0].ClientID)
	}
}
