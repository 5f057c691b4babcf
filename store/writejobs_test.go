package store

import (
	"strings"
	"testing"
)

// TestWriteJobItemsMoveOnlyForward: an item goes in flight only from
// planned, and takes an answer only in flight; a call that breaks the rule
// for one item writes nothing for any.
func TestWriteJobItemsMoveOnlyForward(t *testing.T) {
	s := openTemp(t)
	id, err := s.StartWriteJob(WriteJob{Kind: "delete_file", Profile: "p", Workspace: "w", BaseURL: "https://api",
		ActorEmail: "a@b", ActorOSUser: "ann", Plan: "delete 2 files"},
		[]WriteJobItem{{Seq: 1, Send: 1, Target: "f1", Label: "a.pdf", Action: "delete"}, {Seq: 2, Send: 2, Target: "f2", Action: "delete"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SettleWriteJobItems(id, []WriteJobItem{{Seq: 1, State: ItemDone}}); err == nil {
		t.Fatal("a planned item took an answer: nothing was sent for it")
	}
	if err := s.SendingWriteJobItems(id, []int{1}); err != nil {
		t.Fatal(err)
	}
	if err := s.SendingWriteJobItems(id, []int{2, 1}); err == nil || !strings.Contains(err.Error(), "item 1 is not planned") {
		t.Fatalf("an item in flight was put in flight again: %v", err)
	}
	if err := s.SettleWriteJobItems(id, []WriteJobItem{{Seq: 1, State: ItemDone, Outcome: "deleted", Previous: "x"}, {Seq: 2, State: ItemDone}}); err == nil {
		t.Fatal("an answer for an item never sent was taken")
	}
	items, _ := s.WriteJobItems(id)
	if items[0].State != ItemInFlight || items[1].State != ItemPlanned || items[0].Attempts != 1 || items[0].SentAt.IsZero() {
		t.Fatalf("a refused call wrote: %+v", items)
	}
	if err := s.SettleWriteJobItems(id, []WriteJobItem{{Seq: 1, State: ItemDone, Outcome: "deleted", Previous: "x"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SettleWriteJobItems(id, []WriteJobItem{{Seq: 1, State: ItemFailed}}); err == nil {
		t.Fatal("a settled item took a second answer")
	}
	if err := s.FinishWriteJob(id, JobStopped, "stopped"); err != nil {
		t.Fatal(err)
	}
	u, err := s.StartWriteJob(WriteJob{Kind: "delete_file", BaseURL: "https://api", UndoOf: id}, nil)
	if err != nil {
		t.Fatal(err)
	}
	j, err := s.WriteJob(id)
	if err != nil || j.Status != JobStopped || j.ActorOSUser != "ann" || j.Plan != "delete 2 files" || j.Counts[ItemDone] != 1 || j.Counts[ItemPlanned] != 1 || j.FinishedAt.IsZero() {
		t.Fatalf("%+v %v", j, err)
	}
	by, _ := s.UndoneBy(id)
	all, _ := s.WriteJobs("delete_file")
	if len(by) != 1 || by[0] != u || len(all) != 2 || all[0].UndoOf != id {
		t.Fatalf("undone by %v, jobs %+v", by, all)
	}
	if other, _ := s.WriteJobs("access"); len(other) != 0 {
		t.Fatalf("kind filter: %+v", other)
	}
}
