package projectview

import (
	"testing"

	"github.com/vaultdeck/vaultdeck/api"
	"github.com/vaultdeck/vaultdeck/ui/page/pagetest"
)

// The root waits on quit only for tasks with a Stop: a deletion sent must
// not be dropped by q before its answer says what the service did.
func TestDeleteTaskMakesQuitWait(t *testing.T) {
	env := pagetest.Env(t, &pagetest.Fake{}, false)
	task := DeleteTask(env, 1, api.Project{ID: "123e4567-e89b-12d3-a456-426614174000", Name: "Acme"})
	if task.Stop == nil {
		t.Fatal("the deletion task has no Stop: q would quit with its DELETE in flight")
	}
}
