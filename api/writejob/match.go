package writejob

import (
	"fmt"
	"strings"
)

// MatchError is an answer that cannot be matched one to one to the items
// of its send: a target named twice, a target not sent, or an item the
// answer does not name. The send's items are then unknown, never done.
type MatchError struct {
	Send                     int
	Repeated, Stray, Missing []string
}

func (e *MatchError) Error() string {
	var parts []string
	if len(e.Repeated) > 0 {
		parts = append(parts, "named twice: "+strings.Join(e.Repeated, ", "))
	}
	if len(e.Stray) > 0 {
		parts = append(parts, "named but not sent: "+strings.Join(e.Stray, ", "))
	}
	if len(e.Missing) > 0 {
		parts = append(parts, "not named: "+strings.Join(e.Missing, ", "))
	}
	return fmt.Sprintf("the service's answer to request %d does not match what was sent (%s)", e.Send, strings.Join(parts, "; "))
}

// Match pairs each item with the one answer that names its target. Any
// repeated, stray or missing target fails the whole send.
func Match(items []Item, answers []Answer) ([]Answer, error) {
	idx := make(map[string]int, len(items))
	for i, it := range items {
		idx[it.Target] = i
	}
	out := make([]Answer, len(items))
	got := make([]bool, len(items))
	e := &MatchError{}
	if len(items) > 0 {
		e.Send = items[0].Send
	}
	for _, a := range answers {
		i, ok := idx[a.Target]
		switch {
		case !ok:
			e.Stray = append(e.Stray, a.Target)
		case got[i]:
			e.Repeated = append(e.Repeated, a.Target)
		default:
			got[i], out[i] = true, a
		}
	}
	for i, it := range items {
		if !got[i] {
			e.Missing = append(e.Missing, it.Target)
		}
	}
	if len(e.Repeated)+len(e.Stray)+len(e.Missing) > 0 {
		return nil, e
	}
	for i, a := range out {
		switch a.State {
		case Done, Failed, Unknown, Planned:
		default:
			return nil, fmt.Errorf("the answer for %s has no state the job knows (%q)", items[i].Target, a.State)
		}
	}
	return out, nil
}
