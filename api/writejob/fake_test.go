package writejob_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
)

// setKind is the smallest kind: it sets a value per target on a fake
// service that answers with the value before. Its target "busy" is refused
// for later (as delete_file's 409) on its first two sends.
type setKind struct {
	mu    sync.Mutex
	vals  map[string]string
	busy  int // sends of "busy" refused so far
	sends int
	// answer, when set, rewrites an answer (a repeated or missing target)
	answer func([]writejob.Answer) []writejob.Answer
}

func (k *setKind) Name() string      { return "set" }
func (k *setKind) AuditType() string { return "api:set" }

func (k *setKind) Send(_ context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sends++
	var out []writejob.Answer
	for _, it := range items {
		if it.Target == "busy" && k.busy < 2 {
			k.busy++
			out = append(out, writejob.Answer{Target: it.Target, State: writejob.Failed, RetryLater: true, Detail: "409: pending jobs"})
			continue
		}
		prev := k.vals[it.Target]
		k.vals[it.Target] = it.Params
		out = append(out, writejob.Answer{Target: it.Target, State: writejob.Done, Outcome: "set", Previous: prev})
	}
	if k.answer != nil {
		out = k.answer(out)
	}
	return out, nil
}

func (k *setKind) Check(_ context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []writejob.Answer
	for _, it := range items {
		if k.vals[it.Target] == it.Params {
			// the change took effect; what was there before is the
			// plan's (the kind's plan knows it: Label carries it here)
			out = append(out, writejob.Answer{Target: it.Target, State: writejob.Done, Outcome: "set", Previous: it.Label})
		} else {
			out = append(out, writejob.Answer{Target: it.Target, State: writejob.Planned})
		}
	}
	return out, nil
}

func (k *setKind) Undo(_ context.Context, job store.WriteJob, done []writejob.Item) (*writejob.UndoPlan, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	up := &writejob.UndoPlan{Text: fmt.Sprintf("undo job %d", job.ID)}
	for i, it := range done {
		if k.vals[it.Target] != it.Params {
			up.Refused = append(up.Refused, writejob.Refusal{Target: it.Target, Why: "changed since: now " + k.vals[it.Target]})
			continue
		}
		up.Items = append(up.Items, writejob.Item{Send: i + 1, Target: it.Target, Action: "set", Params: it.Previous, Label: it.Params})
	}
	return up, nil
}

// world is the walk's view of setKind.
type world struct {
	k *setKind
}

var start = map[string]string{"a": "1", "b": "2", "c": "3", "busy": "4"}
var want = map[string]string{"a": "10", "b": "20", "c": "30", "busy": "40"}

func (w *world) Fresh(t *testing.T) (writejob.Kind, *writejob.Plan) {
	vals := map[string]string{}
	for k, v := range start {
		vals[k] = v
	}
	w.k = &setKind{vals: vals}
	return w.k, plan(t)
}

func plan(t *testing.T) *writejob.Plan {
	t.Helper()
	// a and b share a request, as an access POST carries several users
	items := []writejob.Item{
		{Send: 1, Target: "a", Action: "set", Params: "10", Label: "1"},
		{Send: 1, Target: "b", Action: "set", Params: "20", Label: "2"},
		{Send: 2, Target: "busy", Action: "set", Params: "40", Label: "4"},
		{Send: 3, Target: "c", Action: "set", Params: "30", Label: "3"},
	}
	p, err := writejob.NewPlan(store.WriteJob{Kind: "set", Profile: "walk", BaseURL: "http://sim", Plan: "set 4 values"}, items)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func differ(got, want map[string]string) []string {
	var out []string
	for k, v := range want {
		if got[k] != v {
			out = append(out, fmt.Sprintf("%s is %q, want %q", k, got[k], v))
		}
	}
	sort.Strings(out)
	return out
}

func (w *world) Applied() []string  { return differ(w.k.vals, want) }
func (w *world) Reverted() []string { return differ(w.k.vals, start) }
func (w *world) Undoable() bool     { return true }
