package jsonstream

// Progress counts what the reader of a body calls progress: each item of a
// walked array, a read inside an item that brought more than whitespace, a
// read of a body held whole that did (Limiter). Whitespace, members beside
// the array and keys are no progress, so a body that brings no item looks
// like silence to whoever times it (package api's stall timer). A nil
// *Progress counts nothing.
type Progress struct{ marks uint64 }

// Mark counts one more step of progress.
func (p *Progress) Mark() {
	if p != nil {
		p.marks++
	}
}

// Marks is the steps counted so far.
func (p *Progress) Marks() uint64 {
	if p == nil {
		return 0
	}
	return p.marks
}
