package printer

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/itchyny/gojq"

	"github.com/vaultdeck/vaultdeck/ui/sanitize"
)

// --jq is gh's: the expression sees the whole output, and a listing is one
// array. A listing can be long (a bin of 100,000 entries is 68 MB of JSON),
// so the expression is read before it runs (planJQ) and, when it begins by
// iterating the listing, run on each item as it arrives, with the same
// answer as on the whole array and the memory of one item:
//
//	.[] | f, .[]f, .[]      f on each item, its results printed as they come
//	map(f), [.[] | f]       f on each item, the results printed as one array
//	length                  the items counted
//	map(f) | length         f's results counted (map(select(c)) | length)
//
// Anything else (sort_by, group_by, .[0], reduce, a variable bound to the
// listing) needs the listing whole: it is held, decoded, up to a bound of
// its JSON (--jq-hold, DefaultJQHold), and past it the command stops and
// says so. A user definition of map or length, or a module, keeps the
// expression whole too: the plan reads the builtins' meaning.

// DefaultJQHold is how much of a listing's JSON --jq holds for an
// expression that needs it whole. Decoded, it takes about five times as
// much memory: 62 MB of a 100,000-entry bin held is 320 MiB of RSS
// (TestJQStreamsInFlatMemory, BENCHMARKS.md).
const DefaultJQHold = 64 << 20

// jqPlan is how an expression runs on a listing.
type jqPlan int

const (
	jqWhole jqPlan = iota // the listing held, the expression run on it
	jqEach                // per item, results printed as they come
	jqArray               // per item, results printed as one array
	jqCount               // per item, results counted
)

// jqProgram is a compiled --jq: the expression as written (single
// documents, a listing held whole) and, when it streams, its per-item part.
type jqProgram struct {
	src   string
	whole *gojq.Code
	plan  jqPlan
	each  *gojq.Code // nil with jqCount: the items themselves are counted
	hold  int64      // --jq-hold
}

// jqListing is a listing being shaped by a jqProgram.
type jqListing struct {
	count  int64 // jqCount: results so far
	n      int   // jqArray: results written so far
	held   []any // jqWhole: the items
	size   int64 // jqWhole: their JSON's length
	closed bool
}

func compileJQ(src string) (*jqProgram, error) {
	q, err := gojq.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("not a jq expression: %s", jqMessage(err))
	}
	whole, err := compileQuery(q)
	if err != nil {
		return nil, fmt.Errorf("not a jq expression: %s", jqMessage(err))
	}
	p := &jqProgram{src: src, whole: whole, hold: DefaultJQHold}
	plan, each := planJQ(q)
	if plan != jqWhole && each != nil {
		code, err := compileQuery(each)
		if err != nil {
			plan = jqWhole // what the plan cut out does not compile alone: keep it whole
		}
		p.each = code
	}
	p.plan = plan
	return p, nil
}

// compileQuery compiles q without an environment: $ENV and env would hand
// out VAULTDECK_TOKEN.
func compileQuery(q *gojq.Query) (*gojq.Code, error) {
	return gojq.Compile(q, gojq.WithEnvironLoader(func() []string { return nil }))
}

// planJQ reads q: how it runs on a listing, and the query run on each item
// (nil for jqCount of the items themselves).
func planJQ(q *gojq.Query) (jqPlan, *gojq.Query) {
	if q.Meta != nil || len(q.Imports) > 0 {
		return jqWhole, nil
	}
	for _, fd := range q.FuncDefs {
		if fd.Name == "map" || fd.Name == "length" {
			return jqWhole, nil
		}
	}
	body := *q
	body.FuncDefs = nil
	withDefs := func(per *gojq.Query) *gojq.Query {
		if len(q.FuncDefs) == 0 {
			return per
		}
		return &gojq.Query{FuncDefs: q.FuncDefs, Term: &gojq.Term{Type: gojq.TermTypeQuery, Query: per}}
	}
	if per := perItem(&body); per != nil {
		return jqEach, withDefs(per)
	}
	if per := arrayOfItems(&body); per != nil {
		return jqArray, withDefs(per)
	}
	if isLength(&body) {
		return jqCount, nil
	}
	if body.Op == gojq.OpPipe && body.Patterns == nil && isLength(body.Right) {
		if per := arrayOfItems(body.Left); per != nil {
			return jqCount, withDefs(per)
		}
	}
	return jqWhole, nil
}

// perItem is f when q is `.[] | f`, `.[]f` or `.[]`: what runs on each
// item. The `.[] as $x | f` form is not one: its f sees the whole listing.
func perItem(q *gojq.Query) *gojq.Query {
	if q == nil || len(q.FuncDefs) > 0 {
		return nil
	}
	if t := q.Term; t != nil {
		if rest := iterates(t); rest != nil {
			return rest
		}
		return nil
	}
	if q.Op != gojq.OpPipe || q.Patterns != nil || q.Left == nil || q.Left.Term == nil || len(q.Left.FuncDefs) > 0 {
		return nil
	}
	rest := iterates(q.Left.Term)
	if rest == nil {
		return nil
	}
	if rest.Term.Type == gojq.TermTypeIdentity && len(rest.Term.SuffixList) == 0 {
		return q.Right
	}
	return &gojq.Query{Left: rest, Op: gojq.OpPipe, Right: q.Right}
}

// iterates is what follows `.[]` when t is `.[]` with suffixes (`.[].a`),
// as a query on one item (`.a`, or `.` for `.[]` alone); nil otherwise.
func iterates(t *gojq.Term) *gojq.Query {
	if t.Type != gojq.TermTypeIdentity || len(t.SuffixList) == 0 || !t.SuffixList[0].Iter {
		return nil
	}
	rest := &gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: t.SuffixList[1:]}
	return &gojq.Query{Term: rest}
}

// arrayOfItems is f when q is `map(f)` or `[.[] | f]`.
func arrayOfItems(q *gojq.Query) *gojq.Query {
	if q == nil || q.Term == nil || len(q.FuncDefs) > 0 || len(q.Term.SuffixList) > 0 {
		return nil
	}
	t := q.Term
	switch {
	case t.Type == gojq.TermTypeFunc && t.Func.Name == "map" && len(t.Func.Args) == 1:
		return t.Func.Args[0]
	case t.Type == gojq.TermTypeArray && t.Array.Query != nil:
		return perItem(t.Array.Query)
	}
	return nil
}

func isLength(q *gojq.Query) bool {
	return q != nil && q.Term != nil && len(q.FuncDefs) == 0 && q.Term.Type == gojq.TermTypeFunc &&
		q.Term.Func.Name == "length" && len(q.Term.Func.Args) == 0 && len(q.Term.SuffixList) == 0
}

func jqMessage(err error) string { return sanitize.Line(err.Error()) }

// jqFlag is --jq: parsed, planned and compiled in Set.
type jqFlag struct {
	p    *Printer
	expr string
}

func (f *jqFlag) String() string { return f.expr }
func (f *jqFlag) Type() string   { return "string" }
func (f *jqFlag) Set(s string) error {
	prog, err := compileJQ(s)
	if err != nil {
		return err
	}
	prog.hold = f.p.jqHold.bytes()
	f.expr = s
	f.p.shape = &shaper{jq: prog}
	f.p.opt.json = true
	return nil
}

// jqHoldFlag is --jq-hold SIZE: how much of a listing --jq holds.
type jqHoldFlag struct {
	p   *Printer
	n   int64
	src string
}

func (f *jqHoldFlag) bytes() int64 {
	if f.n <= 0 {
		return DefaultJQHold
	}
	return f.n
}
func (f *jqHoldFlag) String() string { return f.src }
func (f *jqHoldFlag) Type() string   { return "size" }
func (f *jqHoldFlag) Set(s string) error {
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > 1<<40 {
		return fmt.Errorf("not a size such as 256MB or 1GiB")
	}
	f.n, f.src = int64(n), s
	if f.p.shape != nil && f.p.shape.jq != nil {
		f.p.shape.jq.hold = f.n
	}
	return nil
}

// startListing begins a listing (a top-level array) for the expression.
func (p *jqProgram) startListing() *jqListing { return &jqListing{} }

// item runs the expression's part on one item of a listing (raw is its
// JSON, for the hold's count).
func (s *shaper) jqItem(l *jqListing, v any, raw int) error {
	p := s.jq
	switch p.plan {
	case jqEach:
		return s.runJQ(p.each, v, s.printResult)
	case jqArray:
		return s.runJQ(p.each, v, func(x any) error {
			sep := byte(',')
			if l.n == 0 {
				sep = '['
			}
			l.n++
			s.out.WriteByte(sep)
			return s.writeJSONResult(x)
		})
	case jqCount:
		if p.each == nil {
			l.count++
			return nil
		}
		return s.runJQ(p.each, v, func(any) error { l.count++; return nil })
	}
	l.size += int64(raw)
	if l.size > p.hold {
		return &shapeError{msg: fmt.Sprintf("--jq %s needs the whole listing, which is over the %s of JSON --jq holds: --jq-hold SIZE holds more, or begin the expression with .[] or map(…) to run it on each item as the listing streams",
			quoteExpr(p.src), humanize.Bytes(uint64(p.hold)))}
	}
	l.held = append(l.held, v)
	return nil
}

// endListing prints what the expression made of a complete listing.
func (s *shaper) jqEnd(l *jqListing) error {
	switch s.jq.plan {
	case jqEach:
		return nil
	case jqArray:
		if l.n == 0 {
			s.out.WriteByte('[')
		}
		_, err := s.out.WriteString("]\n")
		return err
	case jqCount:
		_, err := s.out.WriteString(strconv.FormatInt(l.count, 10) + "\n")
		return err
	}
	held := l.held
	l.held = nil
	return s.runJQ(s.jq.whole, held, s.printResult)
}

// runJQ runs code on v, handing each result to fn; `halt` ends quietly.
func (s *shaper) runJQ(code *gojq.Code, v any, fn func(any) error) error {
	it := code.RunWithContext(s.ctx, v)
	for {
		x, ok := it.Next()
		if !ok {
			return nil
		}
		if err, isErr := x.(error); isErr {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil // `halt`: this item's output ends, quietly
			}
			return err
		}
		if err := fn(x); err != nil {
			return err
		}
	}
}

// printResult prints one result on its line: a string raw (less escape
// sequences), anything else compact JSON.
func (s *shaper) printResult(x any) error {
	if str, isStr := x.(string); isStr {
		s.out.WriteString(sanitize.Output(str))
	} else if err := s.writeJSONResult(x); err != nil {
		return err
	}
	return s.out.WriteByte('\n')
}

func (s *shaper) writeJSONResult(x any) error {
	b, err := gojq.Marshal(x)
	if err != nil {
		return err
	}
	_, err = s.out.Write(jsonSafe(nil, b, true))
	return err
}

// listingHint is said after a failure on a listing of an expression that
// reads as if written for one item (`.name`): the listing is an array.
func (p *jqProgram) listingHint(err error) string {
	msg := jqMessage(err)
	if p.plan == jqWhole && strings.Contains(msg, "but got: array") {
		msg += fmt.Sprintf(" (a listing is an array, as in gh: --jq %s runs on each item)", quoteExpr(".[] | "+p.src))
	}
	return msg
}

// quoteExpr is an expression as a shell would take it back.
func quoteExpr(s string) string {
	if !strings.Contains(s, "'") {
		return "'" + s + "'"
	}
	return strconv.Quote(s)
}
