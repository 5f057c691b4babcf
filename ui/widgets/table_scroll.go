package widgets

// Centre scrolls the window so that the cursor's row is in its middle,
// where the rows allow: a jump's target is drawn with the rows before it
// above and those after it below, not on the last line with one side off
// screen.
func (t *Table) Centre() {
	t.offset = t.cursor - t.bodyHeight()/2
	t.clampCursor()
}

// Shift scrolls the window by n rows without moving the cursor off its
// row: after n rows were put above the loaded ones (newer entries read in
// while scrolling up), the same rows stay where they were drawn.
func (t *Table) Shift(n int) {
	t.offset += n
	t.clampCursor()
}
