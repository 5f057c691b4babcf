package writejobtest

// The walk's guards: the journal and the kind as the checker sees them
// (nothing sent unrecorded, nothing after a failed store write, the answer
// to lose lost).

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/vaultdeck/vaultdeck/api/writejob"
	"github.com/vaultdeck/vaultdeck/store"
	"github.com/vaultdeck/vaultdeck/store/storefault"
)

// errLost is a request that acted but whose answer was lost.
var errLost = errors.New("read: connection reset by peer (injected: the service acted, its answer was lost)")

// journal follows the core's store calls: whether one returned an error
// (nothing may be sent after that) and which job the run writes.
type journal struct {
	writejob.Journal
	failed bool
	job    int64
}

func (j *journal) note(err error) error {
	j.failed = j.failed || err != nil
	return err
}

func (j *journal) StartWriteJob(job store.WriteJob, items []store.WriteJobItem) (int64, error) {
	id, err := j.Journal.StartWriteJob(job, items)
	if err == nil {
		j.job = id
	}
	return id, j.note(err)
}
func (j *journal) SendingWriteJobItems(id int64, seqs []int) error {
	return j.note(j.Journal.SendingWriteJobItems(id, seqs))
}
func (j *journal) SettleWriteJobItems(id int64, items []store.WriteJobItem) error {
	return j.note(j.Journal.SettleWriteJobItems(id, items))
}
func (j *journal) FinishWriteJob(id int64, status, note string) error {
	return j.note(j.Journal.FinishWriteJob(id, status, note))
}

// guarded is the kind as the checker sees it: a dead process sends
// nothing; every item sent was in flight in the store first (read through
// a handle of its own); nothing goes after a store write failed; the
// request to lose acts and loses its answer.
type guarded struct {
	writejob.Kind
	inj    *storefault.Injector
	j      *journal
	reader *store.Store
	lose   int
	sends  int
	bad    *[]string
}

func (g *guarded) Send(ctx context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	if g.inj.Crashed() {
		runtime.Goexit() // the process is gone: it sends nothing more
	}
	if g.j.failed {
		*g.bad = append(*g.bad, fmt.Sprintf("request %d was sent after a write of the journal failed", items[0].Send))
	}
	held, err := g.reader.WriteJobItems(g.j.job)
	if err != nil {
		*g.bad = append(*g.bad, "the journal could not be read before a request: "+err.Error())
	}
	for _, it := range items {
		if it.Seq < 1 || it.Seq > len(held) || held[it.Seq-1].State != writejob.InFlight || held[it.Seq-1].Target != it.Target {
			*g.bad = append(*g.bad, fmt.Sprintf("request %d sent %s, which the journal did not hold in flight", it.Send, it.Target))
		}
	}
	g.sends++
	answers, err := g.Kind.Send(ctx, items)
	if g.sends == g.lose {
		return nil, errLost
	}
	return answers, err
}

func (g *guarded) Check(ctx context.Context, items []writejob.Item) ([]writejob.Answer, error) {
	if g.inj.Crashed() {
		runtime.Goexit()
	}
	return g.Kind.Check(ctx, items)
}
